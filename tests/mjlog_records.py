"""Hand-made Tenhou mjlog records for tests (not real games)."""

from __future__ import annotations


def sanma_record(body: str) -> str:
    """A three-player houou hanchan record (GO type 185 = 0x80 | 0x20 houou, 0x10 sanma, 0x08
    hanchan, 0x01) around ``body``: its ``<INIT>`` and the events that follow."""
    return f"""<mjloggm ver="2.3"><GO type="185" lobby="0"/>
<UN n0="a" n1="b" n2="c" n3="" dan="0,0,0,0" rate="1500,1500,1500,0" sx="M,M,M,C"/>
<TAIKYOKU oya="0"/>
{body}
</mjloggm>"""
