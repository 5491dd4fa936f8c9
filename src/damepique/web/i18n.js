// Strings of the page in English and French; the language is remembered in
// localStorage under "damepique.lang" ("en" | "fr"), shared with the score keeper.

export const LANG_KEY = "damepique.lang";

const RANKS = {
  en: { "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven", "8": "Eight", "9": "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" },
  fr: { "2": "Deux", "3": "Trois", "4": "Quatre", "5": "Cinq", "6": "Six", "7": "Sept", "8": "Huit", "9": "Neuf", T: "Dix", J: "Valet", Q: "Dame", K: "Roi", A: "As" },
};
const SUITS = {
  en: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
  fr: { C: "trèfle", D: "carreau", H: "cœur", S: "pique" },
};

export function cardName(card, lang = currentLang()) {
  const r = RANKS[lang][card[0]];
  const s = SUITS[lang][card[1]];
  return lang === "fr" ? `${r} de ${s}` : `${r} of ${s}`;
}

export function suitName(suit, lang = currentLang()) {
  return SUITS[lang][suit];
}

const STRINGS = {
  en: {
    title: "Dame de pique — Hearts",
    nav_play: "Play", nav_history: "History", nav_rules: "Rules", nav_guide: "Strategy guide", nav_scorer: "Score keeper",
    language: "Language",
    home_heading: "Play Hearts against the computer",
    home_intro: "No sign-up. Three computer players are waiting; a short game takes a few minutes.",
    play_now: "Play now",
    resume: "Resume your game",
    level: "Computer level", beginner: "Beginner", intermediate: "Intermediate", expert: "Expert",
    speed: "Speed", normal: "Normal", fast: "Fast",
    rules_heading: "Rules of the game", preset: "Rules", target: "Game ends at",
    points_100: "100 points", points_50: "50 points",
    all_options: "Every option",
    your_name: "Your name", you: "You",
    four_colour: "Four-colour deck",
    opt_players: "Players", opt_passing: "Passing", opt_pass_cycle: "Pass direction",
    opt_no_points_first_trick: "No points on the first trick", opt_must_break_hearts: "Hearts must be broken before being led",
    opt_moon: "Shooting the moon", opt_jack_of_diamonds: "Jack of diamonds −10 (Omnibus)",
    opt_leftover: "Leftover cards (3 or 5 players)", opt_queen_points: "Queen of spades points",
    opt_first_lead: "First lead", opt_deck: "Deck", opt_black_maria: "Black Maria (K♠ 10, A♠ 7)",
    opt_last_trick_points: "Points for the last trick", opt_pass_count: "Cards passed",
    opt_queen_breaks_hearts: "Queen of spades breaks hearts",
    cycle_standard: "Left, right, across, none", cycle_left: "Always left", cycle_right: "Always right", cycle_across: "Always across",
    moon_others: "Others take 26", moon_self: "Shooter takes −26", moon_off: "No moon",
    leftover_remove: "Removed (2♦, 2♣)", leftover_kitty: "Kitty to the first trick",
    first_two_of_clubs: "2♣ leads", first_any: "Any card",
    deck_52: "52 cards", deck_36: "36 cards (6 to ace)",
    yes: "Yes", no: "No",
    preset_standard: "Standard (100 points)", preset_short: "Short game (50 points)", preset_omnibus: "Omnibus (J♦ −10)",
    preset_three_players: "Three players", preset_five_players: "Five players",
    preset_three_players_kitty: "Three players with a kitty", preset_five_players_kitty: "Five players with a kitty",
    preset_old_rules: "Old rules (any lead, hearts free)", preset_queen_12: "Queen worth 12",
    preset_black_maria: "Black Maria", preset_deck_36: "36-card deck", preset_custom: "Custom",
    deal_n: "Deal {n}",
    your_hand: "Your hand",
    trick: "Trick",
    leads: "{name} leads", you_lead: "You lead",
    takes_trick: "{name} takes the trick", you_take_trick: "You take the trick",
    hearts_broken: "Hearts broken", hearts_not_broken: "Hearts not broken",
    cards_left: "{n} cards", points_deal: "{n} pts this deal", total: "total {n}",
    pass_label: "Pass", pass_to: "Choose {n} cards to pass to the {dir}, to {name}.",
    pass_chosen: "{k} of {n} chosen",
    dir_left: "left", dir_right: "right", dir_across: "across",
    no_pass: "No passing this deal.",
    waiting_pass: "Waiting for the others to pass…",
    received: "You received {cards} from {name}.",
    received_badge: "received",
    your_turn: "Your turn.",
    why_not_your_turn: "Not your turn", why_wait_pass: "Waiting for the others to pass",
    why_follow: "You must follow {suit}", why_first_lead: "The first trick starts with the {card}",
    why_first_points: "No points on the first trick", why_hearts: "Hearts are not broken yet",
    why_done: "The deal is over", why_three: "Already {n} cards chosen: unselect one first",
    plays: "{name} plays {card}.", you_play: "You play {card}.",
    score_sheet: "Score sheet", deal_col: "Deal", moon_mark: "moon", shot_moon: "{name} shot the moon!",
    deal_over: "Deal {n} is over.",
    game_over: "Game over", winner_is: "{name} wins with {n} points!", you_win: "You win with {n} points!",
    chart_title: "Totals deal by deal",
    new_game: "New game", download: "Download the record",
    seal_label: "Deals sealed: {c}…",
    seal_help: "Before the first card, the server fixed every deal of this game with a secret and showed everyone its fingerprint (SHA-256). When the game ends the secret is revealed, so anyone can check that no deal was changed: this page does it, and so does “damepique verify”.",
    seal_revealed: "Secret revealed: {s}…",
    seal_verified: "Deals verified", seal_failed: "The deals do not match their seal",
    seal_unavailable: "This browser cannot check the seal on this page (it needs https)",
    undo_q: "Undo?", undo_text: "There is no undo. Taking a card back after seeing the others' replies would let you use cards you were not supposed to see; every card played is final, as at a real table.",
    training: "Training mode",
    advice: "Advice", advice_wait: "Thinking…", best: "best", mistake: "mistake",
    played_by_suit: "Cards played", voids: "Voids shown", none: "none",
    review: "Review of the deal", review_none: "Your cards matched the expert's choices this deal.",
    review_item: "Trick {t}: you played {mine}, the expert would play {theirs}", review_cost: "estimated cost {c} points",
    review_wait: "The expert is reviewing your deal…",
    connecting: "Connecting…", reconnecting: "Connection lost, reconnecting…",
    error: "Refused: {reason}",
    history_heading: "Your finished games", history_empty: "No finished game yet on this browser.",
    replay: "Replay", upload: "Replay a record file (damepique-game/1)", upload_bad: "This record cannot be replayed: {reason}",
    prev: "Previous trick", next: "Next trick", prev_deal: "Previous deal", next_deal: "Next deal",
    dealt_hands: "Hands as dealt", passes: "Passes", trick_n: "Trick {n} of {m}",
    winner: "Winner", date: "Date",
    seat_you: "You",
    no_game: "No game in progress.",
    kitty: "Kitty (went to the first trick)",
  },
  fr: {
    title: "Dame de pique",
    nav_play: "Jouer", nav_history: "Historique", nav_rules: "Règles", nav_guide: "Guide stratégique", nav_scorer: "Feuille de marque",
    language: "Langue",
    home_heading: "Jouez à la Dame de pique contre l'ordinateur",
    home_intro: "Sans inscription. Trois joueurs virtuels vous attendent ; une partie courte dure quelques minutes.",
    play_now: "Jouer maintenant",
    resume: "Reprendre votre partie",
    level: "Niveau des ordinateurs", beginner: "Débutant", intermediate: "Intermédiaire", expert: "Expert",
    speed: "Vitesse", normal: "Normale", fast: "Rapide",
    rules_heading: "Règles du jeu", preset: "Règles", target: "Fin de partie à",
    points_100: "100 points", points_50: "50 points",
    all_options: "Toutes les options",
    your_name: "Votre nom", you: "Vous",
    four_colour: "Jeu à quatre couleurs",
    opt_players: "Joueurs", opt_passing: "Échange de cartes", opt_pass_cycle: "Sens de l'échange",
    opt_no_points_first_trick: "Pas de points au premier pli", opt_must_break_hearts: "Cœur ouvert avant d'être entamé",
    opt_moon: "Grand chelem", opt_jack_of_diamonds: "Valet de carreau −10 (Omnibus)",
    opt_leftover: "Cartes en trop (3 ou 5 joueurs)", opt_queen_points: "Points de la dame de pique",
    opt_first_lead: "Première entame", opt_deck: "Jeu", opt_black_maria: "Black Maria (R♠ 10, A♠ 7)",
    opt_last_trick_points: "Points du dernier pli", opt_pass_count: "Cartes échangées",
    opt_queen_breaks_hearts: "La dame de pique ouvre les cœurs",
    cycle_standard: "Gauche, droite, en face, aucun", cycle_left: "Toujours à gauche", cycle_right: "Toujours à droite", cycle_across: "Toujours en face",
    moon_others: "Les autres prennent 26", moon_self: "Le tireur marque −26", moon_off: "Pas de grand chelem",
    leftover_remove: "Retirées (2♦, 2♣)", leftover_kitty: "Talon au premier pli",
    first_two_of_clubs: "Le 2♣ entame", first_any: "N'importe quelle carte",
    deck_52: "52 cartes", deck_36: "36 cartes (du 6 à l'as)",
    yes: "Oui", no: "Non",
    preset_standard: "Classique (100 points)", preset_short: "Partie courte (50 points)", preset_omnibus: "Omnibus (V♦ −10)",
    preset_three_players: "Trois joueurs", preset_five_players: "Cinq joueurs",
    preset_three_players_kitty: "Trois joueurs avec talon", preset_five_players_kitty: "Cinq joueurs avec talon",
    preset_old_rules: "Anciennes règles (entame libre, cœurs libres)", preset_queen_12: "Dame à 12",
    preset_black_maria: "Black Maria", preset_deck_36: "Jeu de 36 cartes", preset_custom: "Personnalisées",
    deal_n: "Donne {n}",
    your_hand: "Votre main",
    trick: "Pli",
    leads: "{name} entame", you_lead: "Vous entamez",
    takes_trick: "{name} remporte le pli", you_take_trick: "Vous remportez le pli",
    hearts_broken: "Cœurs ouverts", hearts_not_broken: "Cœurs fermés",
    cards_left: "{n} cartes", points_deal: "{n} pts cette donne", total: "total {n}",
    pass_label: "Passer", pass_to: "Choisissez {n} cartes à passer à {dir}, à {name}.",
    pass_chosen: "{k} sur {n} choisies",
    dir_left: "gauche", dir_right: "droite", dir_across: "en face",
    no_pass: "Pas d'échange cette donne.",
    waiting_pass: "En attente de l'échange des autres…",
    received: "Vous avez reçu {cards} de {name}.",
    received_badge: "reçue",
    your_turn: "À vous de jouer.",
    why_not_your_turn: "Ce n'est pas votre tour", why_wait_pass: "En attente de l'échange des autres",
    why_follow: "Vous devez fournir à {suit}", why_first_lead: "Le premier pli commence par le {card}",
    why_first_points: "Pas de points au premier pli", why_hearts: "Les cœurs ne sont pas encore ouverts",
    why_done: "La donne est finie", why_three: "Déjà {n} cartes choisies : retirez-en une d'abord",
    plays: "{name} joue {card}.", you_play: "Vous jouez {card}.",
    score_sheet: "Feuille de marque", deal_col: "Donne", moon_mark: "chelem", shot_moon: "{name} a fait le grand chelem !",
    deal_over: "La donne {n} est finie.",
    game_over: "Partie terminée", winner_is: "{name} gagne avec {n} points !", you_win: "Vous gagnez avec {n} points !",
    chart_title: "Totaux donne par donne",
    new_game: "Nouvelle partie", download: "Télécharger la partie",
    seal_label: "Donnes scellées : {c}…",
    seal_help: "Avant la première carte, le serveur a fixé toutes les donnes de cette partie par un secret dont il a montré l’empreinte (SHA-256) à tous. À la fin de la partie le secret est révélé : chacun peut vérifier qu’aucune donne n’a été changée ; cette page le fait, « damepique verify » aussi.",
    seal_revealed: "Secret révélé : {s}…",
    seal_verified: "Donnes vérifiées", seal_failed: "Les donnes ne correspondent pas à leur sceau",
    seal_unavailable: "Ce navigateur ne peut pas vérifier le sceau sur cette page (https nécessaire)",
    undo_q: "Annuler ?", undo_text: "Il n'y a pas d'annulation. Reprendre une carte après avoir vu les réponses des autres permettrait d'utiliser des cartes que vous ne deviez pas voir ; toute carte jouée est définitive, comme à une vraie table.",
    training: "Mode entraînement",
    advice: "Conseils", advice_wait: "Réflexion…", best: "meilleure", mistake: "erreur",
    played_by_suit: "Cartes jouées", voids: "Coupes révélées", none: "aucune",
    review: "Revue de la donne", review_none: "Vos cartes ont suivi les choix de l'expert cette donne.",
    review_item: "Pli {t} : vous avez joué {mine}, l'expert aurait joué {theirs}", review_cost: "coût estimé {c} points",
    review_wait: "L'expert revoit votre donne…",
    connecting: "Connexion…", reconnecting: "Connexion perdue, reconnexion…",
    error: "Refusé : {reason}",
    history_heading: "Vos parties terminées", history_empty: "Aucune partie terminée sur ce navigateur.",
    replay: "Revoir", upload: "Revoir un fichier de partie (damepique-game/1)", upload_bad: "Impossible de rejouer cette partie : {reason}",
    prev: "Pli précédent", next: "Pli suivant", prev_deal: "Donne précédente", next_deal: "Donne suivante",
    dealt_hands: "Mains distribuées", passes: "Échanges", trick_n: "Pli {n} sur {m}",
    winner: "Gagnant", date: "Date",
    seat_you: "Vous",
    no_game: "Aucune partie en cours.",
    kitty: "Talon (allé au premier pli)",
  },
};

// Advice reasons from the bots, by code; unknown codes are shown as words.
const REASONS = {
  en: {
    only_card: "the only legal card", shoots_moon: "goes for the moon", stops_moon: "stops a shot at the moon",
    dumps_queen: "gets rid of the queen of spades", gives_points: "gives points to another player", takes_points: "takes points",
    takes_jack: "takes the jack of diamonds", wins_trick: "wins the trick", ducks: "ducks under the winning card",
    follows_low: "follows low", follows_high: "follows high", smokes_queen: "leads spades to draw out the queen",
    leads_low: "leads a low card", leads_high: "leads a high card", leads_hearts: "leads hearts",
    unguards_queen: "leaves the queen of spades unguarded", keeps_queen_guarded: "keeps the queen of spades guarded",
    voids_clubs: "works towards a void in clubs", voids_diamonds: "works towards a void in diamonds",
    voids_hearts: "works towards a void in hearts", voids_spades: "works towards a void in spades",
    discards_high: "discards a high card", passes_queen: "passes the queen of spades away",
    passes_high_spades: "passes high spades", passes_high_hearts: "passes high hearts",
    passes_high_cards: "passes high cards", passes_low_cards: "passes low cards", no_advice: "",
  },
  fr: {
    only_card: "la seule carte possible", shoots_moon: "tente le grand chelem", stops_moon: "empêche le grand chelem",
    dumps_queen: "se défausse de la dame de pique", gives_points: "donne des points à un autre joueur", takes_points: "prend des points",
    takes_jack: "prend le valet de carreau", wins_trick: "remporte le pli", ducks: "passe sous la carte maîtresse",
    follows_low: "fournit petit", follows_high: "fournit gros", smokes_queen: "entame pique pour faire tomber la dame",
    leads_low: "entame une petite carte", leads_high: "entame une grosse carte", leads_hearts: "entame à cœur",
    unguards_queen: "laisse la dame de pique sans garde", keeps_queen_guarded: "garde la dame de pique protégée",
    voids_clubs: "prépare une coupe à trèfle", voids_diamonds: "prépare une coupe à carreau",
    voids_hearts: "prépare une coupe à cœur", voids_spades: "prépare une coupe à pique",
    discards_high: "se défausse d'une grosse carte", passes_queen: "se débarrasse de la dame de pique",
    passes_high_spades: "passe des gros piques", passes_high_hearts: "passe des gros cœurs",
    passes_high_cards: "passe des grosses cartes", passes_low_cards: "passe des petites cartes", no_advice: "",
  },
};

// Refusals from the server, by code (its "error" messages and HTTP errors): the
// server's reason is English, written for people; in French the page says it
// from this table, and falls back to the reason for a code it does not know.
// tests/web/test_refusals.py checks that every code the server sends is here.
const REFUSALS_FR = {
  account_needed: "Les tables classées demandent un compte : connectez-vous d'abord.",
  already_passed: "Vous avez déjà passé vos cartes.",
  already_seated: "Vous êtes déjà assis à cette table.",
  already_started: "La partie a commencé ; vous pouvez la regarder.",
  bad_bot_token: "Ce jeton de robot n'est pas (ou plus) valable ; son propriétaire peut en créer un nouveau.",
  bad_call: "Demande inconnue.",
  bad_card: "Ce n'est pas une carte (une carte s'écrit par exemple « QS »).",
  bad_chat: "Seuls les messages rapides proposés peuvent être envoyés.",
  bad_code: "Un code de table a 8 lettres et chiffres.",
  bad_deal: "Cette donne n'existe pas ou n'est pas terminée.",
  bad_json: "Message illisible (JSON invalide).",
  bad_level: "Niveau inconnu.",
  bad_login: "Pseudo ou mot de passe incorrect.",
  bad_message: "Message mal formé.",
  bad_nickname: "Un pseudo a de 3 à 24 lettres, chiffres, - ou _.",
  bad_option: "Option de table inconnue ou invalide.",
  bad_password: "Un mot de passe a de 8 à 200 caractères.",
  bad_request: "Requête invalide.",
  bad_rules: "Ces règles ne sont pas valables.",
  bad_seat: "Cette place n'existe pas.",
  bad_speed: "La vitesse est normale ou rapide.",
  bad_timer: "Ce temps par tour n'est pas proposé.",
  bad_token: "Ce jeton de place n'est pas (ou plus) valable pour cette table.",
  bad_version: "Version du protocole inconnue de ce serveur.",
  busy: "Le serveur est très occupé ; réessayez dans un instant.",
  cannot_start: "La partie ne peut pas encore commencer : il manque des joueurs.",
  illegal_pass: "Ces cartes ne peuvent pas être passées.",
  illegal_play: "Cette carte ne peut pas être jouée maintenant.",
  nickname_taken: "Ce pseudo est déjà pris.",
  no_game: "Aucune partie en cours à cette table.",
  no_table: "Aucune table avec ce code (ou elle est fermée).",
  no_training: "Les conseils d'entraînement sont pour les parties en solo.",
  no_hints: "Pas d'indice dans une partie classée.",
  hint_used: "Un indice par pli, pas plus.",
  person_needed: "Un robot ne crée ni ne gère de robots : connectez-vous avec votre compte.",
  same_owner: "À une table classée, une personne et ses robots n'ont qu'une place à eux tous.",
  too_many: "L'entraîneur est occupé avec d'autres joueurs ; réessayez dans un instant.",
  not_found: "Introuvable.",
  not_host: "Seul l'hôte lance la partie.",
  not_joined: "La connexion à la table n'est pas encore établie.",
  not_passing: "Ce n'est pas le moment de passer des cartes.",
  not_playing: "Ce n'est pas le moment de jouer une carte.",
  not_seated: "Asseyez-vous d'abord ; les spectateurs regardent seulement.",
  not_your_turn: "Ce n'est pas votre tour.",
  out_of_step: "Cette page n'est plus à jour ; elle se reconnecte.",
  rate_limited: "Trop de messages ; ralentissez.",
  stale_rematch: "Cette revanche concerne une partie qui n'est pas la dernière terminée.",
  storage_failed: "Le coup n'a pas pu être enregistré ; il ne compte pas. Réessayez dans un instant.",
  table_full: "Toutes les places de cette table sont prises.",
  too_large: "Message trop long.",
  too_many_attempts: "Trop de mots de passe erronés ; réessayez dans quelques minutes.",
  too_many_bots: "Vous avez déjà le nombre maximal de robots.",
  too_many_codes: "Trop de codes de table inconnus essayés ; réessayez plus tard.",
  too_many_created: "Trop de parties et de tables créées depuis votre adresse ; réessayez dans quelques minutes.",
  too_slow: "Cette partie est trop longue pour être vérifiée ici.",
  unavailable: "La partie est momentanément indisponible ; réessayez.",
  unknown_token: "Aucune partie pour ce jeton.",
  unknown_type: "Type de message inconnu.",
};

/** What to show for a refusal from the server (``code`` and its English ``reason``). */
export function refusalText(code, reason, lang = currentLang()) {
  if (lang === "fr" && code in REFUSALS_FR) return REFUSALS_FR[code];
  return reason || String(code || "").replaceAll("_", " ");
}

const SEAT_NAMES = {
  fr: { West: "Ouest", North: "Nord", East: "Est", "North-West": "Nord-Ouest", "North-East": "Nord-Est", You: "Vous" },
  en: { Vous: "You" },
};

export function reasonText(code, lang = currentLang()) {
  const table = REASONS[lang];
  if (code in table) return table[code];
  return String(code).replaceAll("_", " ");
}

export function seatName(name, lang = currentLang()) {
  return SEAT_NAMES[lang][name] || name;
}

export function detectLang() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === "en" || saved === "fr") return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of langs) {
    const p = String(l).slice(0, 2).toLowerCase();
    if (p === "fr") return "fr";
    if (p === "en") return "en";
  }
  return "en";
}

let lang = "en";
export function currentLang() {
  return lang;
}
export function setLang(l, remember = true) {
  lang = l === "fr" ? "fr" : "en";
  if (remember) localStorage.setItem(LANG_KEY, lang);
  document.documentElement.lang = lang;
}

/** Add the words of another module: ``{en: {...}, fr: {...}}`` (multiplayer.js). */
export function addStrings(tables) {
  for (const l of Object.keys(tables)) Object.assign(STRINGS[l], tables[l]);
}

export function t(key, params = {}) {
  let s = STRINGS[lang][key];
  if (s === undefined) s = STRINGS.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (_, k) => (k in params ? params[k] : `{${k}}`));
}
