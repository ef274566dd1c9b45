//! Per-game facts of the running standings, kept while a game is played hand by hand.
//!
//! The report's balance scorecard (lead changes, drama, decisiveness, comeback), its extreme games
//! (the largest comeback, the biggest single-hand loss) and the dealer's advantage per hand
//! (`simharness/games/estimates.py` `dealer_rows`) are functions of each game's running standings
//! and dealers. Re-deriving them from the `hands` table costs the report more than the run (a sort
//! and a pivot of millions of hand rows), while the engine has them at hand: every game played in
//! hands feeds each hand's point changes to a [`Standings`] and logs its [`Facts`] in the `games`
//! table ([`hand_game_rows!`]). The definitions are those of the report's slow path
//! (`simharness/stats/balance.py` `_hand_metrics`, `simharness/report/extremes.py`), which reads
//! the hands' `delta_<seat>` and `dealer` columns and is the tests' reference for these columns.

/// The most seats a game played in hands seats.
pub const MAX_SEATS: usize = 8;

/// The running standings of one game: every seat's points after each hand so far.
#[derive(Debug, Clone)]
pub struct Standings {
    n: usize,
    points: [i64; MAX_SEATS],
    /// Each hand's running totals (the half-game checkpoint is only known once the game ends,
    /// and a game's length may depend on play).
    after: Vec<[i64; MAX_SEATS]>,
    /// The largest single-hand loss so far: (points, hand, seat).
    loss: (i64, u32, u8),
    /// The dealer of the hand before.
    dealer: Option<usize>,
    dealer_wins: u32,
    dealer_result: i64,
    dealer_kept: u32,
}

/// What the report needs of a game's standings (see the `games` columns of [`hand_game_rows!`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Facts {
    pub lead_changes: u32,
    pub winner_led_hands: u32,
    pub winner_deficit_sum: i64,
    pub winner_max_deficit: i64,
    pub winner_max_deficit_hand: u32,
    pub winner_leads_from: u32,
    pub last_at_half: u8,
    pub winner_last_at_half: bool,
    pub largest_loss: i64,
    pub largest_loss_hand: u32,
    pub largest_loss_seat: u8,
    pub dealer_wins: u32,
    pub dealer_result: i64,
    pub dealer_kept: u32,
}

impl Standings {
    /// The standings of a game of `n` seats (at most [`MAX_SEATS`]) before its first hand. Points
    /// start at zero: every fact compares seats with each other, so a common starting stack
    /// changes none of them.
    pub fn new(n: usize) -> Self {
        assert!(n <= MAX_SEATS, "a game played in hands seats at most {MAX_SEATS} players");
        Standings {
            n,
            points: [0; MAX_SEATS],
            after: Vec::with_capacity(32),
            loss: (0, 0, 0),
            dealer: None,
            dealer_wins: 0,
            dealer_result: 0,
            dealer_kept: 0,
        }
    }

    /// One hand: its point changes per seat (the seats beyond the game's are ignored), its dealer
    /// and whether the dealer won it (what counts as a win is the game's: its metrics say).
    pub fn hand(&mut self, delta: &[i64], dealer: usize, dealer_won: bool) {
        let h = self.after.len() as u32;
        self.dealer_kept += u32::from(self.dealer == Some(dealer));
        self.dealer = Some(dealer);
        self.dealer_wins += u32::from(dealer_won);
        self.dealer_result += delta.get(dealer).copied().unwrap_or(0);
        for (s, &d) in delta.iter().enumerate().take(self.n) {
            self.points[s] += d;
            // Strictly larger: among equal losses the earliest hand, then the lowest seat.
            if -d > self.loss.0 {
                self.loss = (-d, h, s as u8);
            }
        }
        self.after.push(self.points);
    }

    /// The facts of the game once it is over, with the seats' final `ranks` (1 = first). The
    /// winner is the lowest seat ranked first (a first place shared under tied scores counts for
    /// its lowest seat, as the report does).
    pub fn facts(&self, ranks: &[u8]) -> Facts {
        let n = self.n;
        let w = ranks.iter().take(n).position(|&r| r == 1).unwrap_or(0);
        let mut f = Facts {
            largest_loss: self.loss.0,
            largest_loss_hand: self.loss.1,
            largest_loss_seat: self.loss.2,
            dealer_wins: self.dealer_wins,
            dealer_result: self.dealer_result,
            dealer_kept: self.dealer_kept,
            ..Facts::default()
        };
        let mut previous: Option<u32> = None;
        for (h, pts) in self.after.iter().enumerate() {
            let pts = &pts[..n];
            let best = pts.iter().copied().max().unwrap_or(0);
            // The seats sharing the lead, bit per seat: a change of that set is a lead change.
            let leaders = pts.iter().enumerate().filter(|&(_, &p)| p == best).fold(0u32, |m, (s, _)| m | 1 << s);
            if previous.is_some_and(|p| p != leaders) {
                f.lead_changes += 1;
            }
            previous = Some(leaders);
            let deficit = best - pts[w];
            f.winner_deficit_sum += deficit;
            if deficit > f.winner_max_deficit {
                (f.winner_max_deficit, f.winner_max_deficit_hand) = (deficit, h as u32);
            }
            if deficit == 0 {
                f.winner_led_hands += 1;
            } else {
                f.winner_leads_from = h as u32 + 1;
            }
        }
        let k = self.after.len();
        // The half-game checkpoint: after hand ⌈k/2⌉ (counting from 1); a game of one hand has none.
        if k >= 2 {
            let at = &self.after[k.div_ceil(2) - 1][..n];
            let low = at.iter().copied().min().unwrap_or(0);
            f.last_at_half = at.iter().filter(|&&p| p == low).count() as u8;
            f.winner_last_at_half = at[w] == low;
        }
        f
    }
}

/// Declares the `games` table of a game played in hands: the game's own columns (its first ones
/// `game, deal, rotation`), then the columns of its standings [`Facts`], documented once here for
/// every game, and `set_facts` to fill them.
///
/// ```ignore
/// hand_game_rows! {
///     /// One row per game.
///     pub struct GameRow {
///         /// The game's index in the experiment.
///         game: u64,
///         ...
///     }
/// }
/// ```
#[macro_export]
macro_rules! hand_game_rows {
    (
        $(#[doc = $sdoc:literal])+
        pub struct $name:ident {
            $( $(#[doc = $doc:literal])+ $(#[codes = $codes:expr])? $field:ident : $ty:ty, )*
        }
    ) => {
        $crate::rows! {
            $(#[doc = $sdoc])+
            pub struct $name => "games" {
                $( $(#[doc = $doc])+ $(#[codes = $codes])? $field: $ty, )*
                /// Changes of the points leader between consecutive hands (the set of seats sharing the most points after a hand differs from the set after the hand before; running standings from the hands' point changes).
                lead_changes: u32,
                /// Hands after which the winner (the lowest seat ranked first) had the most points, ties included.
                winner_led_hands: u32,
                /// The winner's deficit to the leader after each hand (most points minus the winner's), summed over the hands.
                winner_deficit_sum: i64,
                /// The winner's largest deficit to the leader after any hand (0 if the winner always led).
                winner_max_deficit: i64,
                /// The first hand (0 = first) after which the winner was `winner_max_deficit` behind (0 if never behind).
                winner_max_deficit_hand: u32,
                /// Hands played before the winner led for good: the hand (counting from 1) after which the winner last did not have the most points; 0 if the winner led after every hand.
                winner_leads_from: u32,
                /// Seats with the fewest points after hand ⌈hands/2⌉ (the half-game checkpoint, ties included); 0 in a game of fewer than 2 hands.
                last_at_half: u8,
                /// Whether the winner was among the `last_at_half` seats (false in a game of fewer than 2 hands).
                winner_last_at_half: bool,
                /// The largest number of points one seat lost in one hand (0 if no seat ever lost points).
                largest_loss: i64,
                /// The hand (0 = first) of `largest_loss`: the earliest among equal losses.
                largest_loss_hand: u32,
                /// The seat that lost `largest_loss` (the lowest seat among equal losses in that hand).
                #[codes = $crate::table::Codes::Seat]
                largest_loss_seat: u8,
                /// Hands won by their dealer (a win as the game's metrics count it).
                dealer_wins: u32,
                /// The dealer's point change summed over the hands (each hand's dealer).
                dealer_result: i64,
                /// Hands after which the same seat dealt the next hand (renchan; a game's last hand has no next).
                dealer_kept: u32,
            }
        }

        impl $name {
            /// Fills the standings columns from the game's [`Facts`]($crate::standings::Facts).
            pub fn set_facts(&mut self, f: &$crate::standings::Facts) {
                self.lead_changes = f.lead_changes;
                self.winner_led_hands = f.winner_led_hands;
                self.winner_deficit_sum = f.winner_deficit_sum;
                self.winner_max_deficit = f.winner_max_deficit;
                self.winner_max_deficit_hand = f.winner_max_deficit_hand;
                self.winner_leads_from = f.winner_leads_from;
                self.last_at_half = f.last_at_half;
                self.winner_last_at_half = f.winner_last_at_half;
                self.largest_loss = f.largest_loss;
                self.largest_loss_hand = f.largest_loss_hand;
                self.largest_loss_seat = f.largest_loss_seat;
                self.dealer_wins = f.dealer_wins;
                self.dealer_result = f.dealer_result;
                self.dealer_kept = f.dealer_kept;
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(n: usize, hands: &[&[i64]]) -> Standings {
        let mut s = Standings::new(n);
        for d in hands {
            s.hand(d, 0, false);
        }
        s
    }

    #[test]
    fn a_worked_comeback() {
        // Three seats. After each hand: [0,10,-10], [-20,30,-10], [10,0,-10], [10,0,-10].
        let s = played(3, &[&[0, 10, -10], &[-20, 20, 0], &[30, -30, 0], &[0, 0, 0]]);
        let f = s.facts(&[1, 2, 3]);
        // Leaders: {1}, {1}, {0}, {0}: one change.
        assert_eq!(f.lead_changes, 1);
        // Seat 0 wins: deficits 10, 50, 0, 0.
        assert_eq!((f.winner_deficit_sum, f.winner_max_deficit, f.winner_max_deficit_hand), (60, 50, 1));
        assert_eq!((f.winner_led_hands, f.winner_leads_from), (2, 2));
        // Checkpoint after hand 2 of 4: [-20, 30, -10], seat 0 alone last.
        assert_eq!((f.last_at_half, f.winner_last_at_half), (1, true));
        assert_eq!((f.largest_loss, f.largest_loss_hand, f.largest_loss_seat), (30, 2, 1));
    }

    #[test]
    fn ties_share_the_lead_and_the_last_place() {
        // After each hand: [0,0], [5,5], [5,5]: the same two leaders throughout, tied last at the checkpoint.
        let f = played(2, &[&[0, 0], &[5, 5], &[0, 0]]).facts(&[1, 1]);
        assert_eq!((f.lead_changes, f.winner_led_hands, f.winner_leads_from), (0, 3, 0));
        assert_eq!((f.last_at_half, f.winner_last_at_half), (2, true));
        assert_eq!(f.largest_loss, 0);
    }

    #[test]
    fn the_dealers_wins_results_and_keeps() {
        // Dealers 0, 0, 1, 2: seat 0 keeps the deal once; seat 0 wins the first hand.
        let mut s = Standings::new(3);
        for (d, dealer, won) in [([6, -3, -3], 0, true), ([-2, 4, -2], 0, false), ([1, -1, 0], 1, false), ([0, 0, 0], 2, false)] {
            s.hand(&d, dealer, won);
        }
        let f = s.facts(&[1, 2, 3]);
        assert_eq!((f.dealer_wins, f.dealer_result, f.dealer_kept), (1, 6 - 2 - 1, 1));
    }

    #[test]
    fn equal_losses_go_to_the_earliest_hand_and_lowest_seat() {
        let f = played(3, &[&[5, 0, -5], &[-5, 10, -5]]).facts(&[2, 1, 3]);
        assert_eq!((f.largest_loss, f.largest_loss_hand, f.largest_loss_seat), (5, 0, 2));
        // One hand: no checkpoint.
        let f = played(3, &[&[5, 0, -5]]).facts(&[1, 2, 3]);
        assert_eq!((f.last_at_half, f.winner_last_at_half), (0, false));
    }
}
