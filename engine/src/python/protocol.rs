//! The Python strategy protocol: a Python object deciding for a lineup slot as a [`Player`] of
//! its game ([`Protocol`], one `impl` per game in `python/<game>.rs`), the read-only view it
//! receives ([`View`]), the generic entry points that play a batch or show a game with such
//! objects (`play_batch_python`, `show_python`), and how a stopped run reaches a strategy inside
//! `decide` (`interrupt_python_strategies`).

use super::{option_error, parse_json, tables_to_python};
use crate::decide::{Decisions, Fault, Outside, Player, PlayerError};
use crate::game::{Batch, Game, Registered};
use crate::games;
use crate::games::riichi::Riichi;
use crate::games::{hongkong::HongKong, sugoroku::Sugoroku, suzume::Suzume, toy::Toy, trump::Trump};
use crate::options::OptionError;
use crate::table::Table;
use pyo3::exceptions::{PyKeyError, PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_long, c_ulong};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

/// The rules and knob sets of a batch in which some lineup slots are Python strategies, checked
/// as `play_batch` checks them, with one `strategies` entry (an object or None) per slot.
fn checked_python_batch<G: Game>(rules: &str, lineup: &str, strategies: usize) -> PyResult<(G::Rules, Vec<G::Knobs>)> {
    let Value::Array(lineup) = parse_json("lineup", lineup)? else {
        return Err(option_error(OptionError::new("lineup", "expected a list of knob tables")));
    };
    let (rules, knobs) = Registered::<G>(PhantomData).checked(&parse_json("rules", rules)?, &lineup).map_err(option_error)?;
    if strategies != knobs.len() {
        let msg = format!("expected one entry (object or None) per lineup slot: {}, got {strategies}", knobs.len());
        return Err(option_error(OptionError::new("strategies", msg)));
    }
    Ok((rules, knobs))
}

/// The threads (Python's thread idents) inside a Python strategy's `decide` right now, or about to
/// call it (past the cancel check): changed and read only with the GIL held, so that
/// [`interrupt_python_strategies`] never hits a thread that has just left `decide`.
static DECIDING: Mutex<Vec<c_ulong>> = Mutex::new(Vec::new());

/// Marks the current thread as inside `decide` for as long as it lives.
struct Deciding(c_ulong);

impl Deciding {
    fn enter(thread: c_ulong) -> Self {
        DECIDING.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(thread);
        Deciding(thread)
    }
}

impl Drop for Deciding {
    fn drop(&mut self) {
        let mut deciding = DECIDING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(i) = deciding.iter().position(|&t| t == self.0) {
            deciding.swap_remove(i);
        }
    }
}

/// Raises `KeyboardInterrupt` in every thread of this process that is inside a Python strategy's
/// `decide` (one stuck in a pure-Python loop included; not one blocked inside a C call until that
/// returns); returns how many. A thread of a worker pool never sees the signal that stops a run:
/// this is how a run's Ctrl-C reaches a strategy that does not return.
#[pyfunction]
pub(super) fn interrupt_python_strategies(_py: Python<'_>) -> usize {
    let deciding = DECIDING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for &thread in deciding.iter() {
        // SAFETY: the GIL is held; the exception is a borrowed reference to a static type object,
        // which PyThreadState_SetAsyncExc increments; an ident that is no longer a thread is ignored.
        unsafe {
            pyo3::ffi::PyThreadState_SetAsyncExc(thread as c_long, pyo3::ffi::PyExc_KeyboardInterrupt);
        }
    }
    deciding.len()
}

/// A Python strategy's failure, told where it happened (`context`: game, slot, decision): the
/// same exception type as `cause`, so that callers can catch what the strategy raised, with the
/// original (and its traceback) as the cause.
fn strategy_error(py: Python<'_>, context: &str, cause: PyErr) -> PyErr {
    let err = PyErr::from_type(cause.get_type(py), format!("{context}: {cause}"));
    err.set_cause(py, Some(cause));
    err
}

/// The Python objects of a batch's lineup slots (`None` for a slot that plays its knobs) and the
/// first failure: the part of every game's [`PyPlayer`] that asks `decide`, checks the run's cancel
/// flag and tells a failure where it happened.
pub(crate) struct PySlots<'py> {
    py: Python<'py>,
    objects: Vec<Option<Bound<'py, PyAny>>>,
    /// Each object's `decide`, looked up at its first decision (where a missing one is told).
    methods: Vec<Option<Bound<'py, PyAny>>>,
    cancel: Option<Bound<'py, PyAny>>,
    /// The thread playing the batch (Python's ident), for [`interrupt_python_strategies`].
    thread: c_ulong,
    /// The first failure and, unless it is an interrupt, where it happened (slot, seat, point):
    /// the game is the engine's refusal's, which [`play_python`] adds.
    error: Option<(PyErr, Option<String>)>,
}

impl<'py> PySlots<'py> {
    fn new(py: Python<'py>, objects: Vec<Option<Bound<'py, PyAny>>>, cancel: Option<Bound<'py, PyAny>>) -> Self {
        // SAFETY: a plain query of the calling thread's ident.
        let thread = unsafe { pyo3::ffi::PyThread_get_thread_ident() };
        let methods = objects.iter().map(|_| None).collect();
        PySlots { py, objects, methods, cancel, thread, error: None }
    }

    /// Whether lineup slot `slot` is played by a Python object.
    pub fn claims(&self, slot: u8) -> bool {
        self.objects.get(usize::from(slot)).is_some_and(Option::is_some)
    }

    /// Calls slot `slot`'s `decide` (for `seat`, at decision `point`) with the view and (unless
    /// `None`) the list of legal actions that `args` builds, and reads its answer with `answer`:
    /// `None` when the slot plays its knobs, `Some(None)` once the batch has failed (this call or
    /// an earlier one; the failure is kept with the slot, seat and point) or was cancelled, else
    /// `Some(Some(answer))`. An interrupt is kept as it is: it is not the strategy's fault.
    pub fn decide<T>(
        &mut self,
        slot: u8,
        seat: usize,
        point: &str,
        args: impl FnOnce(Python<'py>) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyList>>)>,
        answer: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
    ) -> Option<Option<T>> {
        let obj = self.objects.get(usize::from(slot))?.as_ref()?;
        if self.error.is_some() {
            return Some(None);
        }
        let result = {
            // The flag is read inside: a stop that sets it and then interrupts the threads inside
            // decide() reaches this one either way.
            let _deciding = Deciding::enter(self.thread);
            let cancelled =
                self.cancel.as_ref().map_or(Ok(false), |c| c.call_method0(intern!(self.py, "is_set")).and_then(|s| s.is_truthy()));
            let method = &mut self.methods[usize::from(slot)];
            match cancelled {
                Ok(true) => Err(PyKeyboardInterrupt::new_err("the run was interrupted")),
                Ok(false) => match method {
                    Some(m) => Ok(&*m),
                    None => obj.getattr(intern!(self.py, "decide")).map(|m| &*method.insert(m)),
                }
                .and_then(|m| match args(self.py)? {
                    (view, Some(legal)) => m.call1((view, legal)),
                    (view, None) => m.call1((view,)),
                }),
                Err(e) => Err(e),
            }
        };
        match result.and_then(|r| answer(&r)) {
            Ok(t) => Some(Some(t)),
            Err(e) => {
                let at = (!e.is_instance_of::<PyKeyboardInterrupt>(self.py))
                    .then(|| format!("Python strategy of lineup slot {slot} (seat {seat}) at {point}"));
                self.error = Some((e, at));
                Some(None)
            }
        }
    }
}

/// A game's Python strategy protocol: an object with `decide(...)` deciding for a lineup slot, as a
/// [`Player`] of the game like its native strategies. What `decide` receives is built from the
/// seat's [`View`](Decisions::View) alone, so a Python strategy sees what a native one sees and
/// nothing hidden. A game implements this and adds one line to [`PYTHON_GAMES`]; checking the
/// lineup, asking each slot's object, the run's cancel flag, telling a failure where it happened
/// and the tables are this module's.
pub(crate) trait Protocol: Game + Decisions {
    /// What the protocol builds once per batch from the rules (e.g. the rules as one dict that
    /// every view shares).
    type Context<'py>;

    fn context<'py>(py: Python<'py>, rules: &Self::Rules) -> PyResult<Self::Context<'py>>;

    /// The items of the view `decide` receives at `point`, whose actions are `legal`, in order,
    /// each through `out.item` (which builds only the values a strategy reads: [`View`]). The
    /// keys are the same at every point of the same name (they are listed once per batch).
    fn items<'py>(
        py: Python<'py>,
        cx: &Self::Context<'py>,
        view: &Self::View<'_>,
        point: Self::Point,
        legal: &[Self::Action],
        out: &mut Items<'py>,
    ) -> PyResult<()>;

    /// The list of legal actions `decide` receives after the view at `point` (usually
    /// [`legal_list`] of the actions' tuples, each made once per batch through `tuples`), or `None`
    /// where `decide` takes the view alone.
    fn legal<'py>(
        py: Python<'py>,
        point: Self::Point,
        legal: &[Self::Action],
        tuples: &Tuples<'py, Self::Action>,
    ) -> PyResult<Option<Bound<'py, PyList>>>;

    /// The index in `legal` that `decide`'s `answer` chose: by default an int index.
    fn chosen(answer: &Bound<'_, PyAny>, _point: Self::Point, legal: &[Self::Action]) -> PyResult<usize> {
        chosen_index(answer, legal.len())
    }

    /// The answer of the slot's knobs at a point the protocol does not ask Python: by default,
    /// every point is asked.
    fn knob_answer(_knobs: &Self::Knobs, _view: &Self::View<'_>, _point: Self::Point, _legal: &[Self::Action]) -> Option<Self::Action> {
        None
    }

    /// Plays `batch` with the players of `outside` in the slots played from outside the engine.
    fn play_with(
        rules: &Self::Rules,
        lineup: &[Self::Knobs],
        batch: &Batch,
        outside: &mut Outside<'_, Self>,
    ) -> Result<Vec<Table>, PlayerError>;

    /// The first game of `batch` alone with its events ([`Game::show`]), with the players of `outside`.
    fn show_with(
        rules: &Self::Rules,
        lineup: &[Self::Knobs],
        batch: &Batch,
        outside: &mut Outside<'_, Self>,
    ) -> Result<Vec<Table>, PlayerError>;
}

/// The usual list of legal actions: one tuple each.
pub(crate) fn legal_list<'py>(
    py: Python<'py>,
    legal: impl IntoIterator<Item = PyResult<Bound<'py, PyTuple>>>,
) -> PyResult<Option<Bound<'py, PyList>>> {
    // Sized once, not grown by appending.
    let legal = legal.into_iter();
    let mut tuples = Vec::with_capacity(legal.size_hint().0);
    for t in legal {
        tuples.push(t?);
    }
    PyList::new(py, tuples).map(Some)
}

/// A batch's action tuples, each made the first time an action is offered and shared after: a
/// tuple is immutable, and making and freeing one per action and decision was most of what the
/// list of legal actions cost.
pub(crate) struct Tuples<'py, A> {
    made: RefCell<HashMap<A, Bound<'py, PyTuple>, BuildHasherDefault<ActionHasher>>>,
}

/// A multiply-rotate hash of an action's few bytes (as rustc's FxHasher): the default SipHash
/// cost more than making the tuple did.
#[derive(Default)]
struct ActionHasher(u64);

impl Hasher for ActionHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }

    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

impl<'py, A: Copy + Eq + Hash> Tuples<'py, A> {
    /// The tuple of `action`, made by `make` unless made before.
    pub fn get(&self, action: A, make: impl FnOnce() -> PyResult<Bound<'py, PyTuple>>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(t) = self.made.borrow().get(&action) {
            return Ok(t.clone());
        }
        let t = make()?;
        self.made.borrow_mut().insert(action, t.clone());
        Ok(t)
    }
}

impl<A> Default for Tuples<'_, A> {
    fn default() -> Self {
        Tuples { made: RefCell::new(HashMap::default()) }
    }
}

/// What one pass over a game's [`Protocol::items`] collects: the keys, or the value of one item.
#[derive(Clone, Copy)]
enum Want {
    Keys,
    Item(usize),
}

/// The sink of [`Protocol::items`]: each item is a key and a closure that builds its value, called
/// only for the item asked for.
pub(crate) struct Items<'py> {
    py: Python<'py>,
    want: Want,
    at: usize,
    keys: Vec<&'static str>,
    /// The item asked for, once built.
    value: Option<(&'static str, Py<PyAny>)>,
}

impl<'py> Items<'py> {
    /// The view's item `key`, whose value `value` builds.
    #[inline]
    pub fn item<T: IntoPyObject<'py>>(&mut self, key: &'static str, value: impl FnOnce() -> PyResult<T>) -> PyResult<()> {
        match self.want {
            Want::Keys => self.keys.push(key),
            Want::Item(i) if i == self.at => self.value = Some((key, value()?.into_bound_py_any(self.py)?.unbind())),
            Want::Item(_) => {}
        }
        self.at += 1;
        Ok(())
    }
}

/// The item builder of the view being decided on ([`Protocol::items`] over the engine's view),
/// with the lifetime of that view erased: it is dereferenced only while [`PyPlayer::decide`], which
/// owns it, waits for `decide` to return, and dropped from the [`View`] before that returns.
#[derive(Clone, Copy)]
struct Source(*const (dyn Fn(Want) -> PyResult<Items<'static>> + 'static));

// SAFETY: the pointer is only followed with the GIL held, while the frame that owns its target is
// blocked inside `decide` (whichever Python thread the strategy reads the view from).
unsafe impl Send for Source {}
unsafe impl Sync for Source {}

/// The view a Python strategy's `decide` receives: a read-only mapping (`view["hand"]`, `get`,
/// `in`, `keys`/`values`/`items`, iteration, `len`, a dict's `repr`) whose values are built from the
/// engine's view the first time they are read, so that a strategy pays for what it reads. A view
/// kept past `decide` is completed as `decide` returns, so that it stays readable.
#[pyclass(mapping, module = "simharness._engine", name = "_View")]
pub(crate) struct View {
    keys: Keys,
    values: Vec<Option<Py<PyAny>>>,
    source: Option<Source>,
}

/// The keys of the views of one point, shared by every view of it: [`Protocol::items`] lists the
/// same keys for every view at a point of the same name, so they are listed once per batch.
type Keys = Arc<[&'static str]>;

impl View {
    fn value(&mut self, py: Python<'_>, i: usize) -> PyResult<Py<PyAny>> {
        if let Some(v) = &self.values[i] {
            return Ok(v.clone_ref(py));
        }
        let source = self.source.ok_or_else(|| PyRuntimeError::new_err("a view read after its decide() returned"))?;
        // SAFETY: see `Source`: the source is set only while its target lives.
        let items = unsafe { (*source.0)(Want::Item(i)) }?;
        match items.value {
            Some((key, v)) if key == self.keys[i] => {
                self.values[i] = Some(v.clone_ref(py));
                Ok(v)
            }
            _ => Err(PyRuntimeError::new_err(format!(
                "the view's item {i} is no longer {:?}: a game's items differ at one point",
                self.keys[i]
            ))),
        }
    }

    fn index(&self, key: &Bound<'_, PyAny>) -> Option<usize> {
        let key = key.cast::<PyString>().ok()?.to_str().ok()?;
        self.keys.iter().position(|&k| k == key)
    }

    fn dict<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for i in 0..self.keys.len() {
            d.set_item(self.keys[i], self.value(py, i)?)?;
        }
        Ok(d)
    }
}

#[pymethods]
impl View {
    fn __getitem__(&mut self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match self.index(key) {
            Some(i) => self.value(py, i),
            None => Err(PyKeyError::new_err(key.clone().unbind())),
        }
    }

    #[pyo3(signature = (key, default=None))]
    fn get(&mut self, py: Python<'_>, key: &Bound<'_, PyAny>, default: Option<Py<PyAny>>) -> PyResult<Option<Py<PyAny>>> {
        self.index(key).map_or(Ok(default), |i| self.value(py, i).map(Some))
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> bool {
        self.index(key).is_some()
    }

    fn __len__(&self) -> usize {
        self.keys.len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.keys.iter())?.try_iter().map(Bound::into_any)
    }

    fn keys(&self) -> Vec<&'static str> {
        self.keys.to_vec()
    }

    fn values(&mut self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        (0..self.keys.len()).map(|i| self.value(py, i)).collect()
    }

    fn items(&mut self, py: Python<'_>) -> PyResult<Vec<(&'static str, Py<PyAny>)>> {
        (0..self.keys.len()).map(|i| Ok((self.keys[i], self.value(py, i)?))).collect()
    }

    /// A dict of the view.
    fn copy<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.dict(py)
    }

    fn __eq__(&mut self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.dict(py)?.eq(other)
    }

    fn __repr__(&mut self, py: Python<'_>) -> PyResult<String> {
        Ok(self.dict(py)?.repr()?.to_string())
    }
}

/// A lineup slot played by a Python object: it asks through the batch's [`PySlots`], which all the
/// slots' players share (one at a time: a table's decisions come one after another).
struct PyPlayer<'s, 'py, 'k, G: Protocol> {
    slots: &'s RefCell<PySlots<'py>>,
    cx: &'s G::Context<'py>,
    tuples: &'s Tuples<'py, G::Action>,
    slot: u8,
    knobs: &'k G::Knobs,
    /// The view object of the last decision, which the next one fills again unless the strategy
    /// kept it.
    view: Option<Bound<'py, View>>,
    /// The keys of the views of each point met, by the point's name.
    keys: Vec<(&'static str, Keys)>,
}

impl<'py, G: Protocol> Player<G> for PyPlayer<'_, 'py, '_, G> {
    fn decide(&mut self, view: &G::View<'_>, point: G::Point, legal: &[G::Action]) -> Result<G::Action, Fault> {
        if let Some(a) = G::knob_answer(self.knobs, view, point, legal) {
            return Ok(a);
        }
        let (cx, py, tuples) = (self.cx, self.slots.borrow().py, self.tuples);
        let source = move |want: Want| {
            let keys = if matches!(want, Want::Keys) { Vec::with_capacity(32) } else { Vec::new() };
            let mut out = Items { py, want, at: 0, keys, value: None };
            G::items(py, cx, view, point, legal, &mut out).map(|()| out)
        };
        let source: &(dyn Fn(Want) -> PyResult<Items<'py>> + '_) = &source;
        // SAFETY: only the lifetimes are erased; the view drops the pointer before `source` goes.
        let source = Source(unsafe { std::mem::transmute::<_, *const (dyn Fn(Want) -> PyResult<Items<'static>> + 'static)>(source) });
        let reused = &mut self.view;
        let name = G::point_name(point);
        let known = &mut self.keys;
        let args = |py| {
            let keys = match known.iter().find(|(n, _)| *n == name) {
                Some((_, keys)) => keys.clone(),
                None => {
                    let keys: Keys = (unsafe { (*source.0)(Want::Keys) })?.keys.into();
                    known.push((name, keys.clone()));
                    keys
                }
            };
            let v = match reused.take() {
                Some(v) => {
                    let mut b = v.borrow_mut();
                    b.values.resize_with(keys.len(), || None);
                    (b.keys, b.source) = (keys, Some(source));
                    drop(b);
                    v
                }
                None => {
                    let values = keys.iter().map(|_| None).collect();
                    Bound::new(py, View { keys, values, source: Some(source) })?
                }
            };
            *reused = Some(v.clone());
            Ok((v.into_any(), G::legal(py, point, legal, tuples)?))
        };
        let answer = self.slots.borrow_mut().decide(self.slot, G::seat(view), name, args, |r| G::chosen(r, point, legal));
        if let Some(v) = self.view.take() {
            // A view the strategy kept is completed while its source lives; then the source goes.
            // One it did not keep is emptied, to be filled at the next decision.
            let py = v.py();
            // SAFETY: a plain read of the object's reference count.
            let kept = unsafe { pyo3::ffi::Py_REFCNT(v.as_ptr()) } > 1;
            let mut b = v.borrow_mut();
            if kept {
                for i in 0..b.keys.len() {
                    if b.value(py, i).is_err() {
                        break;
                    }
                }
            } else {
                b.values.iter_mut().for_each(|x| *x = None);
            }
            b.source = None;
            drop(b);
            self.view = (!kept).then_some(v);
        }
        // A failure stops the game at once; the slots keep the strategy's exception, told where.
        answer.flatten().map(|i| legal[i]).ok_or_else(|| Fault::Failed(format!("Python strategy of lineup slot {}", self.slot)))
    }
}

/// Checks the lineup and plays `batch` (or, with `show`, its first game alone with its events)
/// with the Python objects of `slots` deciding for their slots. A failure stops the batch at once
/// and raises the strategy's exception (or the interrupt), told the game from the engine's refusal,
/// else the engine's refusal.
fn play_python<'py, G: Protocol>(slots: PySlots<'py>, rules: &str, lineup: &str, batch: Batch, show: bool) -> PyResult<Bound<'py, PyDict>> {
    let py = slots.py;
    let (rules, lineup) = checked_python_batch::<G>(rules, lineup, slots.objects.len())?;
    let cx = G::context(py, &rules)?;
    let tuples = Tuples::default();
    let slots = RefCell::new(slots);
    let mut players: Vec<Option<PyPlayer<G>>> = lineup
        .iter()
        .enumerate()
        .map(|(slot, knobs)| {
            let slot = slot as u8;
            slots.borrow().claims(slot).then_some(PyPlayer {
                slots: &slots,
                cx: &cx,
                tuples: &tuples,
                slot,
                knobs,
                view: None,
                keys: Vec::new(),
            })
        })
        .collect();
    let mut outside: Vec<Option<&mut dyn Player<G>>> = players.iter_mut().map(|p| p.as_mut().map(|p| p as _)).collect();
    let played =
        if show { G::show_with(&rules, &lineup, &batch, &mut outside) } else { G::play_with(&rules, &lineup, &batch, &mut outside) };
    match played {
        Ok(tables) => tables_to_python(py, &tables),
        Err(refusal) => Err(match slots.borrow_mut().error.take() {
            Some((e, None)) => e,
            Some((e, Some(at))) => strategy_error(py, &refusal.game.map_or(at.clone(), |g| format!("game {g}: {at}")), e),
            None => PyRuntimeError::new_err(refusal.to_string()),
        }),
    }
}

/// How a game with a Python strategy protocol plays a batch (`show = false`) or shows a game.
type PlayPython = for<'py> fn(PySlots<'py>, &str, &str, Batch, bool) -> PyResult<Bound<'py, PyDict>>;

/// The games with a Python strategy protocol, by name: one line per game.
const PYTHON_GAMES: &[(&str, PlayPython)] = &[
    (Sugoroku::NAME, play_python::<Sugoroku>),
    (Suzume::NAME, play_python::<Suzume>),
    (Riichi::NAME, play_python::<Riichi>),
    (HongKong::NAME, play_python::<HongKong>),
    (Trump::NAME, play_python::<Trump>),
    (Toy::NAME, play_python::<Toy>),
];

/// The registered games of [`PYTHON_GAMES`] (the test-only toy game is not always registered).
fn registered_python_games() -> impl Iterator<Item = &'static (&'static str, PlayPython)> {
    PYTHON_GAMES.iter().filter(|(n, _)| games::find(n).is_some())
}

fn python_game(name: &str) -> PyResult<PlayPython> {
    registered_python_games().find(|(n, _)| *n == name).map(|&(_, play)| play).ok_or_else(|| {
        let known: Vec<&str> = registered_python_games().map(|(n, _)| *n).collect();
        option_error(OptionError::new("game", format!("\"{name}\" has no Python strategy protocol; games with one: {}", known.join(", "))))
    })
}

/// The names of the games with a Python strategy protocol.
#[pyfunction]
pub(super) fn python_games() -> Vec<&'static str> {
    registered_python_games().map(|(n, _)| *n).collect()
}

/// Plays a batch like `play_batch(game, ...)` with `strategies[slot]` (a Python object or None)
/// deciding for that lineup slot instead of its knobs. Holds the GIL throughout. `cancel` (an
/// object with `is_set()`, e.g. a `threading.Event`) stops the batch with `KeyboardInterrupt`
/// before the next decision once it is set.
#[pyfunction]
#[pyo3(signature = (game, rules, lineup, strategies, seed, first_game, count, duplicate=false, cancel=None))]
#[allow(clippy::too_many_arguments)]
pub(super) fn play_batch_python<'py>(
    py: Python<'py>,
    game: &str,
    rules: &str,
    lineup: &str,
    strategies: Vec<Option<Bound<'py, PyAny>>>,
    seed: u64,
    first_game: u64,
    count: u64,
    duplicate: bool,
    cancel: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let play = python_game(game)?;
    play(PySlots::new(py, strategies, cancel), rules, lineup, Batch { seed, first_game, count, duplicate }, false)
}

/// Game `index` played again alone with its events (`simharness show`), with Python strategies in
/// the slots whose `strategies` entry is an object.
#[pyfunction]
#[pyo3(signature = (game, rules, lineup, strategies, seed, index, duplicate=false))]
#[allow(clippy::too_many_arguments)]
pub(super) fn show_python<'py>(
    py: Python<'py>,
    game: &str,
    rules: &str,
    lineup: &str,
    strategies: Vec<Option<Bound<'py, PyAny>>>,
    seed: u64,
    index: u64,
    duplicate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let play = python_game(game)?;
    play(PySlots::new(py, strategies, None), rules, lineup, Batch { seed, first_game: index, count: 1, duplicate }, true)
}

/// The index a protocol's `decide(view, legal)` returned, checked against `legal`'s length.
pub(crate) fn chosen_index(answer: &Bound<'_, PyAny>, len: usize) -> PyResult<usize> {
    let i: usize = answer.extract().map_err(|_| {
        let shown = answer.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string());
        PyTypeError::new_err(format!("decide() returned {shown}; expected an int index"))
    })?;
    if i < len {
        Ok(i)
    } else {
        Err(PyValueError::new_err(format!("decide() returned {i}; expected an index below {len}")))
    }
}
