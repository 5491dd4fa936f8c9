// Tous les mots des pages en français (l'application et la feuille de score),
// par clé, comme strings/en.js. Les espaces avant « : ; ! ? » sont écrites
// ordinaires ici : i18n.js les rend insécables (typographie française).
// Le grand chelem s'appelle ainsi partout (jamais « la lune »).

const points = (n) => (Math.abs(n) <= 1 ? `${n} point` : `${n} points`);
const names = (list) => (list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} et ${list[list.length - 1]}`);

export default {
  // -- cartes
  rank_2: "Deux", rank_3: "Trois", rank_4: "Quatre", rank_5: "Cinq", rank_6: "Six", rank_7: "Sept", rank_8: "Huit",
  rank_9: "Neuf", rank_T: "Dix", rank_J: "Valet", rank_Q: "Dame", rank_K: "Roi", rank_A: "As",
  index_T: "10", index_J: "V", index_Q: "D", index_K: "R", index_A: "A",
  suit_C: "trèfle", suit_D: "carreau", suit_H: "cœur", suit_S: "pique",
  card_name: "{rank} de {suit}",
  number_words: ["Aucun", "Un", "Deux", "Trois", "Quatre", "Cinq"],
  list: names,
  label_value: "{label} : {value}",

  // -- l'enveloppe
  title: "Dame de pique",
  nav_play: "Jouer", nav_friends: "Jouer à plusieurs", nav_history: "Historique", nav_rules: "Règles",
  nav_guide: "Guide stratégique", nav_scorer: "Feuille de marque", nav_leaderboard: "Classement", nav_account: "Compte",
  nav_label: "Menu principal", menu: "Menu", language: "Langue", skip: "Aller au contenu",

  // -- l'accueil
  home_heading: "Jouez à la Dame de pique contre l'ordinateur",
  home_intro: {
    one: "Sans inscription. Un joueur virtuel vous attend ; une partie courte dure quelques minutes.",
    other: "Sans inscription. {w} joueurs virtuels vous attendent ; une partie courte dure quelques minutes.",
  },
  play_now: "Jouer maintenant", resume: "Reprendre votre partie",
  level: "Niveau des ordinateurs", speed: "Vitesse",
  level_random: "Au hasard", level_beginner: "Débutant", level_intermediate: "Intermédiaire", level_expert: "Expert", level_shooter: "Audacieux",
  speed_normal: "Normale", speed_fast: "Rapide",
  preset: "Règles", target: "Fin de partie à", all_options: "Toutes les options",
  your_name: "Votre nom", you: "Vous", four_colour: "Jeu à quatre couleurs", sounds: "Sons",

  // -- les options des règles
  opt_players: "Joueurs", opt_target: "Fin de partie à", opt_target_100: "100 points", opt_target_50: "50 points",
  opt_passing: "Échange de cartes", opt_pass_count: "Cartes échangées",
  opt_pass_cycle: "Sens de l'échange", opt_pass_cycle_standard: "Gauche, droite, en face, aucun",
  opt_pass_cycle_standard_3: "Gauche, droite, aucun",
  opt_pass_cycle_left: "Toujours à gauche", opt_pass_cycle_right: "Toujours à droite", opt_pass_cycle_across: "Toujours en face",
  opt_no_points_first_trick: "Pas de points au premier pli",
  opt_must_break_hearts: "Cœur ouvert avant d'être entamé",
  opt_hearts_broken_by: "Ce qui ouvre les cœurs", opt_hearts_broken_by_any: "Tout cœur joué",
  opt_hearts_broken_by_discard: "Un cœur défaussé sur une autre couleur",
  opt_first_trick_discard: "Coupe au premier pli", opt_first_trick_discard_any: "N'importe quelle carte à points",
  opt_first_trick_discard_heart: "Un cœur si vous en avez",
  opt_queen_breaks_hearts: "La dame de pique ouvre les cœurs",
  opt_moon: "Grand chelem", opt_moon_others: "Les autres prennent {n}", opt_moon_self: "Qui le réussit marque −{n}", opt_moon_off: "Pas de grand chelem",
  opt_jack_of_diamonds: "Valet de carreau −10 (Omnibus)",
  opt_leftover: "Cartes en trop", opt_leftover_remove: "Retirées ({cards})", opt_leftover_kitty: "Talon au premier pli",
  opt_leftover_none: "Aucune avec ce nombre de joueurs",
  opt_queen_points: "Points de la dame de pique", opt_black_maria: "Black Maria (R♠ 10, A♠ 7)",
  opt_first_lead: "Première entame", opt_first_lead_two_of_clubs: "Le {card} entame", opt_first_lead_any: "N'importe quelle carte",
  opt_deck: "Jeu", opt_deck_52: "52 cartes", opt_deck_36: "36 cartes (du 6 à l'as)",
  opt_last_trick_points: "Points du dernier pli",
  opt_tie: "Égalité pour le plus petit total", opt_tie_play_on: "On joue une donne de plus", opt_tie_share: "Les ex æquo se partagent la victoire",
  yes: "Oui", no: "Non",
  preset_standard: "Classique (100 points)", preset_short: "Partie courte (50 points)", preset_omnibus: "Omnibus (V♦ −10)",
  preset_three_players: "Trois joueurs", preset_five_players: "Cinq joueurs",
  preset_three_players_kitty: "Trois joueurs avec talon", preset_five_players_kitty: "Cinq joueurs avec talon",
  preset_old_rules: "Anciennes règles (entame libre, cœurs libres)", preset_hearts_any_time: "Cœur entamé à tout moment",
  preset_queen_12: "Dame à 12", preset_black_maria: "Black Maria", preset_deck_36: "Jeu de 36 cartes", preset_custom: "Personnalisées",
  preset_text_standard: "les règles ci-dessus, en 100 points.",
  preset_text_short: "les mêmes en 50 points.",
  preset_text_omnibus: "celui qui prend le valet de carreau marque −10.",
  preset_text_three_players: "trois joueurs, 17 cartes chacun, le 2♦ est retiré ; échange à gauche, à droite, aucun.",
  preset_text_five_players: "cinq joueurs, 10 cartes chacun, 2♦ et 2♣ retirés, le 3♣ entame.",
  preset_text_three_players_kitty: "trois joueurs ; la carte en trop, face cachée, va au gagnant du premier pli.",
  preset_text_five_players_kitty: "cinq joueurs ; les deux cartes en trop vont au gagnant du premier pli.",
  preset_text_old_rules: "le joueur à gauche du donneur entame ce qu'il veut, les points peuvent tomber au premier pli et on peut entamer à cœur à tout moment.",
  preset_text_hearts_any_time: "les règles classiques, mais on peut entamer à cœur à tout moment.",
  preset_text_queen_12: "la dame de pique vaut 12 (le grand chelem vaut alors 25).",
  preset_text_black_maria: "le roi de pique vaut 10 et l'as de pique 7, en plus de la dame.",
  preset_text_deck_36: "un jeu de 36 cartes (du six à l'as), la dame vaut 5, un point pour le dernier pli.",

  // -- la table
  deal_n: "Donne {n}", your_hand: "Votre main", trick: "Pli",
  leads: "{name} entame", you_lead: "Vous entamez",
  takes_trick: "{name} remporte le pli", you_take_trick: "Vous remportez le pli",
  hearts_broken: "Cœurs ouverts", hearts_not_broken: "Cœurs fermés",
  cards_left: { one: "{n} carte", other: "{n} cartes" },
  points_deal: { one: "{n} point cette donne", other: "{n} points cette donne" },
  total: "total {n}", points_short: { one: "{n} pt", other: "{n} pts" },
  pass_label: "Passer", pass_to: { one: "Choisissez {n} carte à passer {dir}, à {name}.", other: "Choisissez {n} cartes à passer {dir}, à {name}." },
  pass_chosen: { one: "{k} sur {n} choisie", other: "{k} sur {n} choisies" },
  dir_left: "gauche", dir_right: "droite", dir_across: "en face", dir_to_left: "à gauche", dir_to_right: "à droite",
  dir_to_across: "en face",
  no_pass: "Pas d'échange cette donne.",
  waiting_pass: "En attente de l'échange des autres…",
  received: "Vous avez reçu {cards} de {name}.", received_badge: "reçue",
  your_turn: "À vous de jouer.",
  why_not_your_turn: "Ce n'est pas votre tour", why_wait_pass: "En attente de l'échange des autres",
  why_follow: "Vous devez fournir à {suit}", why_first_lead: "Le premier pli commence par le {card}",
  why_first_points: "Pas de points au premier pli", why_first_heart: "Au premier pli, vous devez vous défausser d'un cœur",
  why_hearts: "Les cœurs ne sont pas encore ouverts",
  why_done: "La donne est finie", why_three: { one: "Déjà {n} carte choisie : retirez-la d'abord", other: "Déjà {n} cartes choisies : retirez-en une d'abord" },
  why_summary: "Appuyez d'abord sur Continuer",
  plays: "{name} joue {card}.", you_play: "Vous jouez {card}.",
  score_sheet: "Feuille de marque", deal_col: "Donne", moon_mark: "grand chelem",
  shot_moon: "{name} a fait le grand chelem !",
  kitty_face_down: { one: "Talon : {n} carte face cachée, pour le gagnant du premier pli", other: "Talon : {n} cartes face cachée, pour le gagnant du premier pli" },
  kitty: "Talon (allé au premier pli) : {cards}", seat_voids: "Coupes : {suits}",
  last_trick: "Dernier pli", last_trick_hide: "Retour à la table", no_last_trick: "Aucun pli pris pour l'instant",
  undo_q: "Annuler ?", undo_text: "Il n'y a pas d'annulation. Reprendre une carte après avoir vu les réponses des autres permettrait d'utiliser des cartes que vous ne deviez pas voir ; toute carte jouée est définitive, comme à une vraie table.",
  connecting: "Connexion…", reconnecting: "Connexion perdue, reconnexion…",
  error: "Refusé : {reason}",
  no_game: "Aucune partie en cours.", seat_you: "Vous",

  // -- le bilan de la donne et la fin de la partie
  deal_over: "La donne {n} est finie",
  sum_player: "Joueur", sum_points: "Cette donne", sum_total: "Total",
  sum_moon_others: "{name} a fait le grand chelem : chacun des autres prend {n}.",
  sum_moon_self: "{name} a fait le grand chelem et marque −{n}.",
  sum_jack: "{name} a pris le valet de carreau : −10.",
  sum_kitty: { one: "Le talon ({cards}) est allé à {name} : {n} point.", other: "Le talon ({cards}) est allé à {name} : {n} points." },
  sum_kitty_zero: "Le talon ({cards}) est allé à {name} : aucun point.",
  sum_leads: { one: "{names} mène la partie avec {total}.", other: "{names} mènent la partie avec {total}." },
  sum_you_lead: "Vous menez la partie avec {total}.",
  sum_points_n: { one: "{n} point", other: "{n} points" },
  continue: "Continuer", sum_waiting: "En attente de {names}…", sum_closes: "Fermeture dans {n} s",
  game_over: "Partie terminée", winner_is: "{name} gagne avec {total} !", you_win: "Vous gagnez avec {total} !",
  winners_are: "{names} se partagent la victoire avec {total} !",
  chart_title: "Totaux donne par donne", chart_deal: "Donne", chart_target: "objectif {n}",
  new_game: "Nouvelle partie", download: "Télécharger la partie",
  seal_label: "Donnes scellées : {c}…",
  seal_help: "Avant la première carte, le serveur a fixé toutes les donnes de cette partie par un secret dont il a montré l’empreinte (SHA-256) à tous. À la fin de la partie le secret est révélé : chacun peut vérifier qu’aucune donne n’a été changée ; cette page le fait, « damepique verify » aussi.",
  seal_revealed: "Secret révélé : {s}…",
  seal_verified: "Donnes vérifiées", seal_failed: "Les donnes ne correspondent pas à leur sceau",
  seal_unavailable: "Ce navigateur ne peut pas vérifier le sceau sur cette page (https nécessaire)",

  // -- l'entraînement
  training: "Mode entraînement",
  advice: "Conseils", advice_wait: "Réflexion…", best: "meilleure", mistake: "erreur",
  advice_unit: "points attendus pour la donne (le plus bas est le mieux)",
  advice_score: "{x} points attendus",
  played_by_suit: "Cartes jouées", voids: "Coupes révélées", none: "aucune",
  review: "Revue de la donne", review_none: "Vos cartes ont suivi les choix de l'expert cette donne.",
  review_item: "Pli {t} : vous avez joué {mine}, l'expert aurait joué {theirs}",
  review_cost: { one: "coût estimé {x} point", other: "coût estimé {x} points" },
  review_wait: "L'expert revoit votre donne…",

  // -- l'historique et les parties revues
  history_heading: "Vos parties terminées", history_empty: "Aucune partie terminée sur ce navigateur.",
  replay: "Revoir", upload: "Revoir un fichier de partie (damepique-game/1)", upload_bad: "Impossible de rejouer cette partie : {reason}",
  prev: "Pli précédent", next: "Pli suivant", prev_deal: "Donne précédente", next_deal: "Donne suivante",
  dealt_hands: "Mains distribuées", passes: "Échanges", trick_n: "Pli {n} sur {m}",
  winner: "Gagnant", date: "Date", players: "Joueurs", totals: "Totaux", rules_heading: "Règles du jeu",
  rules_detail: "Les options détaillées : ", rules_no_undo: "Il n'y a pas d'annulation : une carte jouée est définitive.",
  trick_points: { one: "{n} point", other: "{n} points" },

  // -- les tables à plusieurs
  mp_heading: "Jouer avec des amis ou des inconnus",
  mp_code: "Code de la table", mp_join: "Rejoindre", mp_watch: "Regarder",
  mp_bad_code: "Un code de table a 8 lettres et chiffres, par exemple K7QM-4XPA.",
  mp_create: "Créer une table", mp_create_button: "Créer la table",
  mp_timer: "Temps par tour", mp_timer_none: "Sans limite", mp_timer_n: "{n} s par tour",
  mp_bot_level: "Niveau des robots", mp_fill: "Des robots occupent les places libres", mp_public: "Publique (visible dans le salon)",
  mp_spectators: "Spectateurs admis", mp_ranked: "Classée", mp_ranked_needs: "connectez-vous d'abord",
  mp_ranked_short: "classée", mp_friendly: "amicale",
  mp_lobby: "Tables publiques", mp_lobby_empty: "Aucune table publique pour l'instant : créez-en une !",
  mp_lobby_seats: { one: "{n} place libre", other: "{n} places libres" },
  mp_lobby_full: "complète", mp_lobby_playing: "en cours", mp_lobby_waiting: "attend des joueurs", mp_lobby_over: "partie finie",
  mp_players: "Joueurs", mp_player: "Joueur",
  mp_table: "Table", mp_share: "Invitez les autres avec le lien ou le code", mp_link: "Lien vers la table",
  mp_copy: "Copier le lien", mp_copied: "Lien copié", mp_share_button: "Partager…",
  mp_share_text: "Viens jouer à la Dame de pique à ma table : code {code}",
  mp_host: "hôte", mp_empty_seat: "Place libre", mp_offline: "hors ligne", mp_online: "en ligne", mp_bot: "ordinateur",
  mp_away: "absent, un robot joue", mp_left: "parti, un robot joue",
  mp_sit: "Prendre une place", mp_start: "Lancer la partie", mp_leave: "Quitter la table",
  mp_leave_q: "Quitter la table ?", mp_leave_text: "La partie continue sans vous : un joueur virtuel prend votre place jusqu'à la fin, et vous ne pourrez pas la reprendre.",
  mp_leave_yes: "Quitter", mp_stay: "Rester",
  mp_seated: { one: "{n} personne assise", other: "{n} personnes assises" },
  mp_wait_second: "En attente d'une deuxième personne ; l'hôte pourra ensuite lancer la partie.",
  mp_wait_full: { one: "Il manque {n} personne : la partie commence quand toutes les places sont prises.", other: "Il manque {n} personnes : la partie commence quand toutes les places sont prises." },
  mp_wait_host: "En attente du lancement par l'hôte.",
  mp_wait_you: "Tout est prêt : appuyez sur « Lancer la partie » quand vous voulez.",
  mp_bots_fill: { one: "{n} place libre ira à un joueur virtuel.", other: "{n} places libres iront à des joueurs virtuels." },
  mp_spectating: "vous regardez", mp_quick: "Messages rapides", mp_mute: "Masquer {name}",
  mp_rematch: "Revanche",
  mp_notice_timeout: "Temps écoulé : le serveur a joué pour {name}.",
  mp_notice_stand_in: "{name} est absent : un robot joue jusqu'à son retour.",
  mp_notice_back: "{name} est de retour.",
  mp_notice_left: "{name} a quitté la table.",
  qm_hello: "Bonjour !", qm_well_played: "Bien joué !", qm_thanks: "Merci !", qm_oops: "Oups !",
  qm_sorry: "Désolé !", qm_nice_try: "Bien tenté !", qm_good_game: "Bonne partie !", qm_bye: "Au revoir !",

  // -- les comptes
  acc_heading: "Votre compte", acc_nickname: "Pseudo", acc_password: "Mot de passe",
  acc_login: "Se connecter", acc_register: "Créer un compte", acc_logout: "Se déconnecter", acc_profile: "Votre profil",
  acc_signed_in: "Connecté en tant que {name} (classement {rating}).",
  acc_why: "Jouer ne demande pas de compte ; les parties classées, si.",
  acc_rules: "Un pseudo a de 3 à 24 lettres, chiffres, - ou _ ; un mot de passe au moins 8 caractères.",
  lb_heading: "Classement", lb_rating: "Points Elo", lb_games: "Parties classées", lb_wins: "Victoires", lb_rank: "Rang",
  lb_empty: "Personne n'a encore joué de partie classée.",
  pf_games: "Parties", pf_ranked: "Parties classées", pf_avg: "Points moyens par donne", pf_moons: "Grands chelems",
  pf_queens: "Dames de pique prises", pf_chart: "Classement après chaque partie classée", pf_none: "Aucun joueur avec ce pseudo.",
  pf_game: "Partie classée",

  // -- les raisons des conseils
  reason_only_card: "la seule carte possible", reason_shoots_moon: "tente le grand chelem", reason_stops_moon: "empêche le grand chelem",
  reason_dumps_queen: "se défausse de la dame de pique", reason_gives_points: "donne des points à un autre joueur",
  reason_takes_points: "prend des points", reason_takes_jack: "prend le valet de carreau",
  reason_wins_trick: "remporte un pli sans points", reason_ducks: "passe sous la carte maîtresse",
  reason_follows_low: "fournit petit", reason_follows_high: "fournit gros", reason_follows_under: "fournit sous la carte maîtresse",
  reason_smokes_queen: "entame pique pour faire tomber la dame",
  reason_leads_low: "entame une petite carte", reason_leads_high: "entame une grosse carte", reason_leads_hearts: "entame à cœur",
  reason_unguards_queen: "laisse la dame de pique sans garde", reason_keeps_queen_guarded: "garde la dame de pique protégée",
  reason_voids_clubs: "se débarrasse de son dernier trèfle", reason_voids_diamonds: "se débarrasse de son dernier carreau",
  reason_voids_hearts: "se débarrasse de son dernier cœur", reason_voids_spades: "se débarrasse de son dernier pique",
  reason_discards_high: "se défausse d'une grosse carte", reason_discards_low: "se défausse d'une petite carte",
  reason_passes_queen: "se débarrasse de la dame de pique",
  reason_passes_high_spades: "passe des gros piques", reason_passes_high_hearts: "passe des gros cœurs",
  reason_passes_high_cards: "passe des grosses cartes", reason_passes_low_cards: "passe des petites cartes", reason_no_advice: "",

  // -- les noms que le serveur donne aux joueurs virtuels
  seat_West: "Ouest", seat_North: "Nord", seat_East: "Est", "seat_North-West": "Nord-Ouest", "seat_North-East": "Nord-Est",
  seat_You: "Vous", seat_Vous: "Vous",

  // -- les refus du serveur, par code (tests/web/test_refusals.py vérifie qu'il n'en manque aucun)
  refusal_account_needed: "Les tables classées demandent un compte : connectez-vous d'abord.",
  refusal_already_passed: "Vous avez déjà passé vos cartes.",
  refusal_already_seated: "Vous êtes déjà assis à cette table.",
  refusal_already_started: "La partie a commencé ; vous pouvez la regarder.",
  refusal_bad_call: "Demande inconnue.",
  refusal_bad_card: "Ce n'est pas une carte (une carte s'écrit par exemple « QS »).",
  refusal_bad_chat: "Seuls les messages rapides proposés peuvent être envoyés.",
  refusal_bad_code: "Un code de table a 8 lettres et chiffres.",
  refusal_bad_deal: "Cette donne n'existe pas ou n'est pas terminée.",
  refusal_bad_json: "Message illisible (JSON invalide).",
  refusal_bad_level: "Niveau inconnu.",
  refusal_bad_login: "Pseudo ou mot de passe incorrect.",
  refusal_bad_message: "Message mal formé.",
  refusal_bad_nickname: "Un pseudo a de 3 à 24 lettres, chiffres, - ou _.",
  refusal_bad_option: "Option de table inconnue ou invalide.",
  refusal_bad_password: "Un mot de passe a de 8 à 200 caractères.",
  refusal_bad_request: "Requête invalide.",
  refusal_bad_rules: "Ces règles ne vont pas ensemble ; changez une option et réessayez.",
  refusal_bad_seat: "Cette place n'existe pas.",
  refusal_bad_speed: "La vitesse est normale ou rapide.",
  refusal_bad_timer: "Ce temps par tour n'est pas proposé.",
  refusal_bad_token: "Ce jeton de place n'est pas (ou plus) valable pour cette table.",
  refusal_bad_version: "Version du protocole inconnue de ce serveur.",
  refusal_cannot_start: "La partie ne peut pas encore commencer : il manque des joueurs.",
  refusal_illegal_pass: "Ces cartes ne peuvent pas être passées.",
  refusal_illegal_play: "Cette carte ne peut pas être jouée maintenant.",
  refusal_nickname_taken: "Ce pseudo est déjà pris.",
  refusal_no_game: "Aucune partie en cours à cette table.",
  refusal_no_table: "Aucune table avec ce code (ou elle est fermée).",
  refusal_not_found: "Introuvable.",
  refusal_not_host: "Seul l'hôte lance la partie.",
  refusal_not_joined: "La connexion à la table n'est pas encore établie.",
  refusal_not_passing: "Ce n'est pas le moment de passer des cartes.",
  refusal_not_playing: "Ce n'est pas le moment de jouer une carte.",
  refusal_not_seated: "Asseyez-vous d'abord ; les spectateurs regardent seulement.",
  refusal_not_your_turn: "Ce n'est pas votre tour.",
  refusal_out_of_step: "Cette page n'est plus à jour ; elle se reconnecte.",
  refusal_rate_limited: "Trop de messages ; ralentissez.",
  refusal_stale_rematch: "Cette revanche concerne une partie qui n'est pas la dernière terminée.",
  refusal_table_full: "Toutes les places de cette table sont prises.",
  refusal_too_large: "Message trop long.",
  refusal_too_many_attempts: "Trop de mots de passe erronés ; réessayez dans quelques minutes.",
  refusal_too_many_codes: "Trop de codes de table inconnus essayés ; réessayez plus tard.",
  refusal_unavailable: "La partie est momentanément indisponible ; réessayez.",
  refusal_unknown_token: "Aucune partie pour ce jeton.",
  refusal_unknown_type: "Type de message inconnu.",

  // -- la feuille de score (web/scorer)
  sc_title: "Feuille de score",
  sc_tagline: "La Dame de pique avec de vraies cartes : la feuille additionne, vérifie chaque donne et dit qui gagne.",
  sc_newSheet: "Nouvelle feuille", sc_players: "Joueurs", sc_playerN: "Joueur {n}", sc_addPlayer: "Ajouter un joueur",
  sc_removePlayer: "Retirer {name}", sc_playersHint: "De 3 à 6 joueurs, dans l'ordre autour de la table (passer à gauche, c'est au suivant).",
  sc_rules: "Règles", sc_target: "La partie s'arrête à", sc_targetOther: "autre",
  sc_moonRule: "Grand chelem (prendre toutes les cartes qui comptent)",
  sc_moonOthers: "+{n} à chacun des autres", sc_moonSelf: "−{n} pour qui le réussit", sc_moonOff: "pas de grand chelem",
  sc_jack: "Le valet de carreau retire 10 points", sc_queen: "La dame de pique vaut", sc_blackMaria: "Black Maria : le R♠ compte 10 et l'A♠ 7",
  sc_create: "Commencer la feuille", sc_yourSheets: "Vos feuilles sur cet appareil", sc_noSheets: "Aucune feuille pour l'instant.",
  sc_deal: "Donne", sc_dealN: "Donne {n}", sc_pass: "Passe",
  sc_pass_left: "on passe à gauche", sc_pass_right: "on passe à droite", sc_pass_across: "on passe en face", sc_pass_none: "on ne passe pas",
  sc_dealGives: "Une donne distribue {n} points.", sc_jackHint: "Le valet de carreau compte −10.",
  sc_sumNow: "Somme : {sum} sur {total}", sc_save: "Enregistrer la donne", sc_saveEdit: "Enregistrer la donne {n}",
  sc_orMoon: "Ou, d'un seul geste :", sc_moonBy: "Grand chelem de {name}", sc_jackTakenBy: "Valet de carreau pris par",
  sc_theShooter: "l'auteur du grand chelem",
  sc_editing: "Correction de la donne {n}", sc_cancel: "Annuler", sc_edit: "Modifier", sc_editDeal: "Modifier la donne {n}",
  sc_deleteDeal: "Supprimer la donne {n}", sc_confirmDelete: "Supprimer la donne {n} ?", sc_undo: "Défaire la dernière modification",
  sc_total: "Total", sc_moonTag: "grand chelem", sc_chart: "Les totaux donne après donne", sc_targetLine: "objectif {n}",
  sc_share: "Partager avec la table", sc_shareHint: "Avec ce lien, chacun voit la feuille en lecture seule, mise à jour en direct.",
  sc_copy: "Copier le lien", sc_copied: "Lien copié", sc_exportLabel: "Exporter :", sc_exportTitle: "Garder une copie", sc_print: "Imprimer",
  sc_readOnly: "Lecture seule : la feuille se met à jour toute seule après chaque donne.", sc_live: "en direct", sc_offline: "reconnexion…",
  sc_gameOver: "Partie terminée", sc_tie: "Égalité", sc_wonBanner: "{name} a gagné !", sc_rulesSummary: "en {target}",
  sc_summaryMoonOthers: "grand chelem +{n} aux autres", sc_summaryMoonSelf: "grand chelem −{n} à qui le réussit",
  sc_summaryMoonOff: "pas de grand chelem",
  sc_summaryJack: "valet de carreau −10", sc_summaryQueen: "dame de pique {n}", sc_summaryBM: "Black Maria",
  sc_badInput: "Vérifiez la saisie : {detail}", sc_notWhole: "{name} : {value} n'est pas un nombre entier",
  sc_targetWhole: "Indiquez le score à atteindre en nombre entier de points.", sc_network: "Le serveur ne répond pas. Réessayez.",
  sc_loading: "Chargement…", sc_nextPass: "Ensuite : donne {n}, {pass}",
  scm_players_count: (p) => `une feuille compte de 3 à 6 joueurs, pas ${p.count}`,
  scm_player_name_empty: (p) => `le joueur ${p.position} n'a pas de nom`,
  scm_player_name_long: (p) => `le nom « ${p.name} » est trop long (${p.length} caractères, ${p.limit} au plus)`,
  scm_player_name_twice: (p) => `deux joueurs s'appellent ${p.name}`,
  scm_target_range: (p) => `le score à atteindre doit être entre 1 et ${p.limit}, pas ${p.target}`,
  scm_queen_points: (p) => `la dame de pique vaut 13 ou 12, pas ${p.value}`,
  scm_points_count: (p) => `${p.players} joueurs, mais ${p.count} scores donnés`,
  scm_points_negative: (p) => `${p.player} a ${p.points} : les points ne peuvent pas être négatifs (pas de valet de carreau sur cette feuille)`,
  scm_points_below_jack: (p) => `${p.player} a ${p.points} : le valet de carreau retire 10 points au plus, personne ne descend sous -10`,
  scm_points_too_many: (p) => `${p.player} a ${p.points}, mais une donne ne compte que ${p.limit} points : ${points(p.points - p.limit)} de trop`,
  scm_jack_twice: (p) => `${names(p.players)} ont des points négatifs, mais un seul joueur prend le valet de carreau`,
  scm_sum_short: (p) => `les points font ${p.total} au total, une donne en distribue ${p.expected} : il manque ${points(p.difference)}`,
  scm_sum_over: (p) => `les points font ${p.total} au total, une donne en distribue ${p.expected} : ${points(p.difference)} de trop`,
  scm_moon_off: () => "le grand chelem n'est pas joué sur cette feuille : entrez les points de chacun",
  scm_jack_off: () => "le valet de carreau n'est pas joué sur cette feuille",
  scm_entry_empty: () => "entrez les points de chaque joueur ou qui a fait le grand chelem",
  scm_entry_both: () => "entrez les points de chaque joueur ou qui a fait le grand chelem, pas les deux",
  scm_nothing_to_undo: () => "rien à annuler",
  scm_winner: (p) => `${p.player} gagne avec ${points(p.total)}`,
  scm_tie: (p) => `${names(p.players)} sont à égalité avec ${points(p.total)} : jouez une autre donne`,
  scm_playing: (p) => (p.players.length === 1 ? `${p.players[0]} mène` : `${names(p.players)} sont en tête`),

  // -- the rules and strategy guide pages (HTML)
  rules_html: `<h1>Les règles de la Dame de pique</h1>
<p>Quatre joueurs (trois ou cinq sont possibles) reçoivent treize cartes chacun. Le but est de prendre le <strong>moins de points</strong> possible : chaque cœur vaut 1 point et la dame de pique 13. La partie s'arrête après la donne où quelqu'un atteint le seuil (100 points, ou 50 pour une partie courte) ; le plus petit total gagne. En cas d'égalité pour le plus petit total, on continue jusqu'à ce qu'un seul joueur soit devant.</p>
<h2>L'échange</h2>
<p>Avant de jouer, chacun passe trois cartes : à gauche à la première donne, puis à droite, puis en face, puis pas d'échange, et on recommence. À trois ou cinq joueurs : gauche, droite, aucun. On découvre les cartes reçues quand tout le monde a passé.</p>
<h2>Le jeu</h2>
<p>Le joueur qui a le deux de trèfle l'entame au premier pli. Chacun doit fournir à la couleur demandée s'il le peut ; sinon il joue la carte de son choix. La plus forte carte de la couleur demandée remporte le pli et entame le suivant.</p>
<ul>
<li>Pas de points au premier pli : ni cœur ni dame de pique, sauf si la main ne contient rien d'autre.</li>
<li>On ne peut entamer à cœur que si un cœur a déjà été joué (les cœurs sont « ouverts »), sauf si l'on n'a plus que des cœurs. La dame de pique n'ouvre pas les cœurs.</li>
</ul>
<h2>Le grand chelem</h2>
<p>Si un joueur prend tous les cœurs et la dame de pique, il « fait le grand chelem » : il marque 0 et chacun des autres 26.</p>
<h2>Les variantes proposées</h2>
<p>La page d'accueil permet de choisir un préréglage ou de changer chaque option :</p>`,
  guide_html: `<h1>Guide stratégique</h1>
<p>Voici les idées qu'utilisent les joueurs virtuels de damepique ; le mode entraînement les montre carte par carte.</p>
<h2>L'échange</h2>
<ul>
<li>Passez la dame de pique, sauf si vous avez au moins quatre piques pour la protéger ; passez l'as et le roi de pique si vous n'avez pas la dame bien gardée.</li>
<li>Cherchez à vider une couleur courte (trèfle ou carreau) : une coupe permet ensuite de se défausser de points.</li>
<li>Les gros cœurs sont dangereux ; les petites cartes de chaque couleur sont précieuses — gardez-les pour passer sous les plis.</li>
<li>Retenez ce que vous avez passé et à qui : votre voisin a maintenant ces cartes.</li>
</ul>
<h2>Le jeu</h2>
<ul>
<li><strong>Passer dessous</strong> : quand vous ne pouvez pas gagner sans risque, jouez la plus forte carte qui reste sous celle qui tient le pli.</li>
<li>Entamez petit dans les couleurs où les autres ont encore des cartes ; entamez des piques sous la dame pour la « faire tomber » si vous ne l'avez pas.</li>
<li>Quand vous coupez, défaussez d'abord la dame de pique, puis les gros cœurs, puis les grosses cartes des couleurs dangereuses.</li>
<li>Comptez les cartes : le mode entraînement montre les cartes jouées couleur par couleur et les coupes révélées.</li>
</ul>
<h2>Le grand chelem</h2>
<ul>
<li>Ne tentez le grand chelem qu'avec beaucoup de gros cœurs et la maîtrise des autres couleurs.</li>
<li>Quand un autre joueur prend tous les points, gardez un cœur ou prenez un pli avec des points pour l'arrêter : quelques points pour vous en évitent 26.</li>
</ul>
<h2>Les chiffres du mode entraînement</h2>
<p>Pour chaque carte jouable, le conseil donne les points que vous pouvez attendre en fin de donne (plus c'est bas, mieux c'est), estimés en jouant de nombreuses donnes compatibles avec ce que vous savez, et une courte raison. Après chaque donne, la revue liste les plis où votre carte différait de celle de l'expert, avec le coût estimé de votre choix.</p>`,
};
