"""The chess tie-break list of a season, tournament or group (chess-othello-options.md §1.1):
its codes, macros and options, checked and expanded. Pure (no Django): the settings validate
with it, and the rankings engine (rankings.engines.chess_tiebreaks) expands with it."""

import re

FIDE2023, FIDE2026, FIDE2009 = "fide2023", "fide2026", "fide2009"
UNPLAYED_RULES = (FIDE2023, FIDE2026, FIDE2009)
AUTO, MONRAD, ROUND_ROBIN = "auto", "monrad", "round_robin"
GROUP_FORMATS = (AUTO, MONRAD, ROUND_ROBIN)
SHARE, LOT = "share", "lot"
FINAL_TIES = (SHARE, LOT)

MAX_CODES = 12
NSF = "NSF"
MACROS = {
    "FIDE-RR": ("DE", "WIN", "SB", "KS"),
    "FIDE-SWISS": ("BH/C1", "BH", "SB", "PS", "DE", "WIN", "BWG"),
    "FIDE-SWISS-RATED": ("BH/C1", "BH", "DE", "ARO/C1", "WIN", "BWG", "BPG", "SB"),
}
NSF_SHORT = ("MK/C1", "MK", "BK")
NSF_LONG = ("MK/C2", "MK/C1", "MK", "BK")
ALIASES = {"GE": "REP"}
CODE_RE = re.compile(
    r"^(MK(/C[12])?|BK|BH(/[CM][12])?|SB(/C1)?|DE(/P)?|WIN|WON|BPG|BWG|PS(/C1)?|REP|"
    r"ARO(/C1)?|KS(/L[+-][1-9])?)$"
)
KNOWN_TEXT = (
    "NSF FIDE-RR FIDE-SWISS FIDE-SWISS-RATED MK MK/C1 MK/C2 BK BH BH/C1 BH/C2 BH/M1 BH/M2 SB "
    "SB/C1 DE DE/P WIN WON BPG BWG PS PS/C1 REP GE ARO ARO/C1 KS KS/L+k KS/L-k"
)
REPEATABLE = frozenset(("DE", "DE/P"))  # FIDE type A tie-breaks may be listed more than once
POINT_CODES = ("MK", "BK", "BH", "SB", "PS", "KS")  # whose values are points (not counts)


def _tokens(text: str) -> list[str]:
    return [ALIASES.get(t.upper(), t.upper()) for t in text.split()]


EMPTY, TOO_MANY, UNKNOWN, TWICE = "empty", "too-many", "unknown", "twice"


def validate(text: str) -> list[tuple[str, list[str]]]:
    """What is wrong with a tie-break list, as (problem, the codes concerned); empty if nothing:
    EMPTY, TOO_MANY (more than MAX_CODES), UNKNOWN codes, codes listed TWICE (DE excepted)."""
    tokens = _tokens(text)
    errors: list[tuple[str, list[str]]] = []
    if not tokens:
        errors.append((EMPTY, []))
    if len(tokens) > MAX_CODES:
        errors.append((TOO_MANY, tokens[MAX_CODES:]))
    unknown = [t for t in tokens if t != NSF and t not in MACROS and not CODE_RE.match(t)]
    if unknown:
        errors.append((UNKNOWN, unknown))
    else:
        # A macro's codes count as listed (NSF either way round: the long form includes both).
        seen: set[str] = set()
        twice: list[str] = []
        for token in tokens:
            codes = NSF_LONG if token == NSF else MACROS.get(token, (token,))
            for code in codes:
                if code in seen and code not in REPEATABLE and code not in twice:
                    twice.append(code)
                seen.add(code)
        if twice:
            errors.append((TWICE, twice))
    return errors


def expand(text: str, rounds: int, monrad_long_from: int = 7) -> tuple[str, ...]:
    """The codes of a (valid) list, macros expanded in place (§1.1)."""
    codes: list[str] = []
    for token in _tokens(text):
        if token == NSF:
            codes.extend(NSF_LONG if rounds >= monrad_long_from else NSF_SHORT)
        else:
            codes.extend(MACROS.get(token, (token,)))
    return tuple(codes)


def is_nsf_default(codes: tuple[str, ...], rounds: int, monrad_long_from: int) -> bool:
    return codes == (NSF_LONG if rounds >= monrad_long_from else NSF_SHORT)


def is_points(code: str) -> bool:
    """Whether a code's values are points (in quarter points), not counts, ratings or tiers."""
    return code.partition("/")[0] in POINT_CODES


def is_known(text: str) -> bool:
    return not validate(text)
