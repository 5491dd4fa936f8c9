"""What the score keeper says, in English and French, from a code and its params.

An error carries a ``code`` and ``params`` (numbers and player names); this
module turns them into a sentence. The pages show the sentence in the reader's
language, so no text is ever parsed back.

>>> render("sum_short", {"total": 24, "expected": 26, "difference": 2}, "en")
'the points add up to 24, a deal gives 26: 2 points are missing'
>>> render("sum_short", {"total": 25, "expected": 26, "difference": 1}, "fr")
'les points font 25 au total, une donne en distribue 26 : il manque 1 point'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

LANGUAGES = ("en", "fr")

Params = Mapping[str, Any]


def _points_en(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def _points_fr(n: int) -> str:
    return f"{n} point" if abs(n) <= 1 else f"{n} points"


def _names_en(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _names_fr(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " et " + names[-1]


def _short_en(p: Params) -> str:
    d = p["difference"]
    missing = "1 point is missing" if d == 1 else f"{d} points are missing"
    return f"the points add up to {p['total']}, a deal gives {p['expected']}: {missing}"


def _over_en(p: Params) -> str:
    d = p["difference"]
    return f"the points add up to {p['total']}, a deal gives {p['expected']}: {_points_en(d)} too many"


_EN: dict[str, Callable[[Params], str]] = {
    "players_count": lambda p: f"a sheet needs 3 to 6 players, not {p['count']}",
    "player_name_empty": lambda p: f"player {p['position']} has no name",
    "player_name_long": lambda p: (
        f"the name {p['name']!r} is too long ({p['length']} characters, {p['limit']} at most)"
    ),
    "player_name_twice": lambda p: f"two players are called {p['name']}",
    "rules_unknown": lambda p: f"unknown rule {p['key']!r}",
    "rules_type": lambda p: f"{p['key']} must be {p['expected']}, not {p['value']!r}",
    "target_range": lambda p: f"the target must be between 1 and {p['limit']}, not {p['target']}",
    "moon_rule": lambda p: f"the moon rule must be 'others', 'self' or 'off', not {p['value']!r}",
    "queen_points": lambda p: f"the queen of spades is worth 13 or 12, not {p['value']}",
    "queen_points_36": lambda p: (
        f"in the 36-card game the queen of spades is worth {p['queen']}, not {p['value']}"
    ),
    "deck": lambda p: f"the deck has 52 or 36 cards, not {p['value']!r}",
    "tie_rule": lambda p: f"a tie at the end must be 'play_on' or 'share', not {p['value']!r}",
    "points_count": lambda p: f"{p['players']} players, but {p['count']} points given",
    "points_not_number": lambda p: f"{p['player']}'s points must be a whole number, not {p['value']!r}",
    "points_negative": lambda p: (
        f"{p['player']} has {p['points']}: points cannot be negative (no J♦ on this sheet)"
    ),
    "points_below_jack": lambda p: (
        f"{p['player']} has {p['points']}: the J♦ takes off 10 points at most, so no one scores below -10"
    ),
    "points_too_many": lambda p: (
        f"{p['player']} has {p['points']}, but a deal has only {p['limit']} points: "
        f"{_points_en(p['points'] - p['limit'])} too many"
    ),
    "jack_twice": lambda p: (
        f"{_names_en(p['players'])} all have negative points, but only one player takes the J♦"
    ),
    "sum_short": _short_en,
    "sum_over": _over_en,
    "moon_or_ordinary": lambda p: (
        f"{p['player']} has {p['points']}: a moon with the J♦ too ({p['player']} {p['shooter_score']}, "
        f"the others {p['others_score']} each) or an ordinary deal? Choose one"
    ),
    "moon_off": lambda p: "the moon is off on this sheet: enter each player's points",
    "unknown_player": lambda p: f"no player {p['player']!r} on this sheet",
    "jack_off": lambda p: "the J♦ is off on this sheet",
    "entry_empty": lambda p: "enter either the points of each player or who shot the moon",
    "entry_both": lambda p: "enter either the points of each player or who shot the moon, not both",
    "no_such_deal": lambda p: (
        f"there is no deal {p['number']} (deals 1 to {p['count']})"
        if p["count"]
        else f"there is no deal {p['number']}: no deal entered yet"
    ),
    "game_over": lambda p: (
        f"the game is over: {_names_en(p.get('winners', [p['winner']]))} won. Edit or delete a deal to go on"
    ),
    "nothing_to_undo": lambda p: "nothing to undo",
    "no_such_sheet": lambda p: "there is no sheet at this address (check the link)",
    "bad_sheet_data": lambda p: f"the stored sheet is damaged: {p['detail']}",
    # Outcome of the game, for the pages and exports.
    "winner": lambda p: f"{p['player']} wins with {_points_en(p['total'])}",
    "shared": lambda p: f"{_names_en(p['players'])} share the win with {_points_en(p['total'])}",
    "tie": lambda p: f"{_names_en(p['players'])} are tied with {_points_en(p['total'])}: play another deal",
    "playing": lambda p: (
        f"{_names_en(p['players'])} leads"
        if len(p["players"]) == 1
        else f"{_names_en(p['players'])} share the lead"
    ),
}


def _short_fr(p: Params) -> str:
    return (
        f"les points font {p['total']} au total, une donne en distribue {p['expected']} : "
        f"il manque {_points_fr(p['difference'])}"
    )


def _over_fr(p: Params) -> str:
    return (
        f"les points font {p['total']} au total, une donne en distribue {p['expected']} : "
        f"{_points_fr(p['difference'])} de trop"
    )


_FR: dict[str, Callable[[Params], str]] = {
    "players_count": lambda p: f"une feuille compte de 3 à 6 joueurs, pas {p['count']}",
    "player_name_empty": lambda p: f"le joueur {p['position']} n'a pas de nom",
    "player_name_long": lambda p: (
        f"le nom « {p['name']} » est trop long ({p['length']} caractères, {p['limit']} au plus)"
    ),
    "player_name_twice": lambda p: f"deux joueurs s'appellent {p['name']}",
    "rules_unknown": lambda p: f"règle inconnue « {p['key']} »",
    "rules_type": lambda p: f"{p['key']} doit être {p['expected_fr']}, pas {p['value']!r}",
    "target_range": lambda p: f"le score à atteindre doit être entre 1 et {p['limit']}, pas {p['target']}",
    "moon_rule": lambda p: f"la règle de la lune doit être 'others', 'self' ou 'off', pas {p['value']!r}",
    "queen_points": lambda p: f"la dame de pique vaut 13 ou 12, pas {p['value']}",
    "queen_points_36": lambda p: f"au jeu de 36 cartes la dame de pique vaut {p['queen']}, pas {p['value']}",
    "deck": lambda p: f"le jeu compte 52 ou 36 cartes, pas {p['value']!r}",
    "tie_rule": lambda p: f"une égalité à la fin doit être 'play_on' ou 'share', pas {p['value']!r}",
    "points_count": lambda p: f"{p['players']} joueurs, mais {p['count']} scores donnés",
    "points_not_number": lambda p: (
        f"les points de {p['player']} doivent être un nombre entier, pas {p['value']!r}"
    ),
    "points_negative": lambda p: (
        f"{p['player']} a {p['points']} : "
        "les points ne peuvent pas être négatifs (pas de valet de carreau sur cette feuille)"
    ),
    "points_below_jack": lambda p: (
        f"{p['player']} a {p['points']} : le valet de carreau retire "
        "10 points au plus, personne ne descend sous -10"
    ),
    "points_too_many": lambda p: (
        f"{p['player']} a {p['points']}, mais une donne ne compte que {p['limit']} points : "
        f"{_points_fr(p['points'] - p['limit'])} de trop"
    ),
    "jack_twice": lambda p: (
        f"{_names_fr(p['players'])} ont des points négatifs, mais un seul joueur prend le valet de carreau"
    ),
    "sum_short": _short_fr,
    "sum_over": _over_fr,
    "moon_or_ordinary": lambda p: (
        f"{p['player']} a {p['points']} : une lune avec aussi le valet de carreau ({p['player']} "
        f"{p['shooter_score']}, les autres {p['others_score']} chacun) ou une donne ordinaire ? Choisissez"
    ),
    "moon_off": lambda p: "la lune n'est pas jouée sur cette feuille : entrez les points de chacun",
    "unknown_player": lambda p: f"pas de joueur {p['player']!r} sur cette feuille",
    "jack_off": lambda p: "le valet de carreau n'est pas joué sur cette feuille",
    "entry_empty": lambda p: "entrez les points de chaque joueur ou qui a tiré la lune",
    "entry_both": lambda p: "entrez les points de chaque joueur ou qui a tiré la lune, pas les deux",
    "no_such_deal": lambda p: (
        f"il n'y a pas de donne {p['number']} (donnes 1 à {p['count']})"
        if p["count"]
        else f"il n'y a pas de donne {p['number']} : aucune donne entrée"
    ),
    "game_over": lambda p: (
        f"la partie est finie : {_names_fr(p.get('winners', [p['winner']]))} "
        f"{'ont' if len(p.get('winners', ())) > 1 else 'a'} gagné. "
        "Modifiez ou supprimez une donne pour continuer"
    ),
    "nothing_to_undo": lambda p: "rien à annuler",
    "no_such_sheet": lambda p: "aucune feuille à cette adresse (vérifiez le lien)",
    "bad_sheet_data": lambda p: f"la feuille enregistrée est abîmée : {p['detail']}",
    "winner": lambda p: f"{p['player']} gagne avec {_points_fr(p['total'])}",
    "shared": lambda p: f"{_names_fr(p['players'])} se partagent la victoire avec {_points_fr(p['total'])}",
    "tie": lambda p: (
        f"{_names_fr(p['players'])} sont à égalité avec {_points_fr(p['total'])} : jouez une autre donne"
    ),
    "playing": lambda p: (
        f"{_names_fr(p['players'])} mène"
        if len(p["players"]) == 1
        else f"{_names_fr(p['players'])} sont en tête"
    ),
}

_TABLES = {"en": _EN, "fr": _FR}
CODES = tuple(_EN)


def render(code: str, params: Params, lang: str = "en") -> str:
    """The sentence for ``code`` in ``lang`` ("en" or "fr"; anything else gives English)."""
    return _TABLES.get(lang, _EN)[code](params)


def render_all(code: str, params: Params) -> dict[str, str]:
    """``{"en": ..., "fr": ...}`` for ``code``."""
    return {lang: render(code, params, lang) for lang in LANGUAGES}
