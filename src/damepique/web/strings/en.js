// Every English word of the pages (the app and the score keeper), by key.
// A value is a string with {placeholders}, an object of plural forms
// ({one, other}, chosen by Intl.PluralRules on the `n` parameter), or a
// function of the parameters where a sentence needs more than that.

const points = (n) => (Math.abs(n) === 1 ? `${n} point` : `${n} points`);
const names = (list) => (list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`);

export default {
  // -- cards
  rank_2: "Two", rank_3: "Three", rank_4: "Four", rank_5: "Five", rank_6: "Six", rank_7: "Seven", rank_8: "Eight",
  rank_9: "Nine", rank_T: "Ten", rank_J: "Jack", rank_Q: "Queen", rank_K: "King", rank_A: "Ace",
  // What the corner of a card shows.
  index_T: "10", index_J: "J", index_Q: "Q", index_K: "K", index_A: "A",
  suit_C: "clubs", suit_D: "diamonds", suit_H: "hearts", suit_S: "spades",
  card_name: "{rank} of {suit}",
  number_words: ["No", "One", "Two", "Three", "Four", "Five"],
  list: names,
  label_value: "{label}: {value}",

  // -- chrome
  title: "Dame de pique — Hearts",
  nav_play: "Play", nav_friends: "Play with others", nav_history: "History", nav_rules: "Rules",
  nav_guide: "Strategy guide", nav_scorer: "Score keeper", nav_leaderboard: "Leaderboard", nav_account: "Account",
  nav_label: "Main", menu: "Menu", language: "Language", skip: "Skip to content",

  // -- home
  home_heading: "Play Hearts against the computer",
  home_intro: {
    one: "No sign-up. One computer player is waiting; a short game takes a few minutes.",
    other: "No sign-up. {w} computer players are waiting; a short game takes a few minutes.",
  },
  play_now: "Play now", resume: "Resume your game",
  level: "Computer level", speed: "Speed",
  level_random: "Random", level_beginner: "Beginner", level_intermediate: "Intermediate", level_expert: "Expert", level_shooter: "Bold",
  speed_normal: "Normal", speed_fast: "Fast",
  preset: "Rules", target: "Game ends at", all_options: "Every option",
  your_name: "Your name", you: "You", four_colour: "Four-colour deck", sounds: "Sounds",

  // -- the rules' options (rules_form.js): opt_KEY, and opt_KEY_VALUE for a choice
  opt_players: "Players", opt_target: "Game ends at", opt_target_100: "100 points", opt_target_50: "50 points",
  opt_passing: "Passing", opt_pass_count: "Cards passed",
  opt_pass_cycle: "Pass direction", opt_pass_cycle_standard: "Left, right, across, none",
  opt_pass_cycle_standard_3: "Left, right, none",
  opt_pass_cycle_left: "Always left", opt_pass_cycle_right: "Always right", opt_pass_cycle_across: "Always across",
  opt_no_points_first_trick: "No points on the first trick",
  opt_must_break_hearts: "Hearts must be broken before being led",
  opt_hearts_broken_by: "What breaks hearts", opt_hearts_broken_by_any: "Any heart played",
  opt_hearts_broken_by_discard: "A heart discarded on another suit",
  opt_first_trick_discard: "Void on the first trick", opt_first_trick_discard_any: "Any of your point cards",
  opt_first_trick_discard_heart: "A heart if you hold one",
  opt_queen_breaks_hearts: "Queen of spades breaks hearts",
  opt_moon: "Shooting the moon", opt_moon_others: "Others take {n}", opt_moon_self: "Shooter takes −{n}", opt_moon_off: "No moon",
  opt_jack_of_diamonds: "Jack of diamonds −10 (Omnibus)",
  opt_leftover: "Leftover cards", opt_leftover_remove: "Removed ({cards})", opt_leftover_kitty: "Kitty to the first trick",
  opt_leftover_none: "None with these players",
  opt_queen_points: "Queen of spades points", opt_black_maria: "Black Maria (K♠ 10, A♠ 7)",
  opt_first_lead: "First lead", opt_first_lead_two_of_clubs: "{card} leads", opt_first_lead_any: "Any card",
  opt_deck: "Deck", opt_deck_52: "52 cards", opt_deck_36: "36 cards (6 to ace)",
  opt_last_trick_points: "Points for the last trick",
  opt_tie: "A tie for the lowest total", opt_tie_play_on: "Play another deal", opt_tie_share: "The tied players share the win",
  yes: "Yes", no: "No",
  preset_standard: "Standard (100 points)", preset_short: "Short game (50 points)", preset_omnibus: "Omnibus (J♦ −10)",
  preset_three_players: "Three players", preset_five_players: "Five players",
  preset_three_players_kitty: "Three players with a kitty", preset_five_players_kitty: "Five players with a kitty",
  preset_old_rules: "Old rules (any lead, hearts free)", preset_hearts_any_time: "Hearts led at any time",
  preset_queen_12: "Queen worth 12", preset_black_maria: "Black Maria", preset_deck_36: "36-card deck", preset_custom: "Custom",
  preset_text_standard: "the rules above, to 100 points.",
  preset_text_short: "the same to 50 points.",
  preset_text_omnibus: "whoever takes the jack of diamonds scores −10.",
  preset_text_three_players: "three players, 17 cards each, the 2♦ is removed; pass left, right, none.",
  preset_text_five_players: "five players, 10 cards each, 2♦ and 2♣ removed, the 3♣ leads.",
  preset_text_three_players_kitty: "three players; the leftover card lies face down and goes to the winner of the first trick.",
  preset_text_five_players_kitty: "five players; the two leftover cards go to the winner of the first trick.",
  preset_text_old_rules: "the player left of the dealer leads any card, points may fall on the first trick, and hearts may be led at any time.",
  preset_text_hearts_any_time: "the standard rules, but hearts may be led at any time.",
  preset_text_queen_12: "the queen of spades is worth 12 (the moon is then 25).",
  preset_text_black_maria: "the king of spades is worth 10 and the ace of spades 7 as well as the queen.",
  preset_text_deck_36: "a 36-card deck (six to ace), the queen worth 5, one point for the last trick.",

  // -- the table
  deal_n: "Deal {n}", your_hand: "Your hand", trick: "Trick",
  leads: "{name} leads", you_lead: "You lead",
  takes_trick: "{name} takes the trick", you_take_trick: "You take the trick",
  hearts_broken: "Hearts broken", hearts_not_broken: "Hearts not broken",
  cards_left: { one: "1 card", other: "{n} cards" },
  points_deal: { one: "1 point this deal", other: "{n} points this deal" },
  total: "total {n}", points_short: { one: "1 pt", other: "{n} pts" },
  pass_label: "Pass", pass_to: { one: "Choose 1 card to pass {dir}, to {name}.", other: "Choose {n} cards to pass {dir}, to {name}." },
  pass_chosen: "{k} of {n} chosen",
  dir_left: "left", dir_right: "right", dir_across: "across", dir_to_left: "to the left", dir_to_right: "to the right",
  dir_to_across: "across",
  no_pass: "No passing this deal.",
  waiting_pass: "Waiting for the others to pass…",
  received: "You received {cards} from {name}.", received_badge: "received",
  your_turn: "Your turn.",
  why_not_your_turn: "Not your turn", why_wait_pass: "Waiting for the others to pass",
  why_follow: "You must follow {suit}", why_first_lead: "The first trick starts with the {card}",
  why_first_points: "No points on the first trick", why_first_heart: "On the first trick you must discard a heart",
  why_hearts: "Hearts are not broken yet",
  why_done: "The deal is over", why_three: { one: "Already 1 card chosen: unselect it first", other: "Already {n} cards chosen: unselect one first" },
  why_summary: "Press Continue first",
  plays: "{name} plays {card}.", you_play: "You play {card}.",
  score_sheet: "Score sheet", deal_col: "Deal", moon_mark: "moon",
  shot_moon: "{name} shot the moon!",
  kitty_face_down: { one: "Kitty: 1 card face down, for the winner of the first trick", other: "Kitty: {n} cards face down, for the winner of the first trick" },
  kitty: "Kitty (went to the first trick): {cards}", seat_voids: "Voids: {suits}",
  last_trick: "Last trick", last_trick_hide: "Back to the table", no_last_trick: "No trick taken yet",
  undo_q: "Undo?", undo_text: "There is no undo. Taking a card back after seeing the others' replies would let you use cards you were not supposed to see; every card played is final, as at a real table.",
  connecting: "Connecting…", reconnecting: "Connection lost, reconnecting…",
  error: "Refused: {reason}",
  no_game: "No game in progress.", seat_you: "You",

  // -- the deal summary and the end of the game
  deal_over: "Deal {n} is over",
  sum_player: "Player", sum_points: "This deal", sum_total: "Total",
  sum_moon_others: "{name} shot the moon: every other player takes {n}.",
  sum_moon_self: "{name} shot the moon and takes −{n}.",
  sum_jack: "{name} took the jack of diamonds: −10.",
  sum_kitty: { one: "The kitty ({cards}) went to {name}: 1 point.", other: "The kitty ({cards}) went to {name}: {n} points." },
  sum_kitty_zero: "The kitty ({cards}) went to {name}: no points.",
  sum_leads: { one: "{names} leads the game with {total}.", other: "{names} lead the game with {total}." },
  sum_you_lead: "You lead the game with {total}.",
  sum_points_n: { one: "1 point", other: "{n} points" },
  continue: "Continue", sum_waiting: "Waiting for {names}…", sum_closes: "Closes in {n} s",
  game_over: "Game over", winner_is: "{name} wins with {total}!", you_win: "You win with {total}!",
  winners_are: "{names} share the win with {total}!",
  chart_title: "Totals deal by deal", chart_deal: "Deal", chart_target: "target {n}",
  new_game: "New game", download: "Download the record",
  seal_label: "Deals sealed: {c}…",
  seal_help: "Before the first card, the server fixed every deal of this game with a secret and showed everyone its fingerprint (SHA-256). When the game ends the secret is revealed, so anyone can check that no deal was changed: this page does it, and so does “damepique verify”.",
  seal_revealed: "Secret revealed: {s}…",
  seal_verified: "Deals verified", seal_failed: "The deals do not match their seal",
  seal_unavailable: "This browser cannot check the seal on this page (it needs https)",

  // -- training
  training: "Training mode",
  advice: "Advice", advice_wait: "Thinking…", best: "best", mistake: "mistake",
  advice_unit: "expected points for the deal (lower is better)",
  advice_score: "{x} expected points",
  played_by_suit: "Cards played", voids: "Voids shown", none: "none",
  review: "Review of the deal", review_none: "Your cards matched the expert's choices this deal.",
  review_item: "Trick {t}: you played {mine}, the expert would play {theirs}",
  review_cost: { one: "estimated cost {x} point", other: "estimated cost {x} points" },
  review_wait: "The expert is reviewing your deal…",

  // -- history and replays
  history_heading: "Your finished games", history_empty: "No finished game yet on this browser.",
  replay: "Replay", upload: "Replay a record file (damepique-game/1)", upload_bad: "This record cannot be replayed: {reason}",
  prev: "Previous trick", next: "Next trick", prev_deal: "Previous deal", next_deal: "Next deal",
  dealt_hands: "Hands as dealt", passes: "Passes", trick_n: "Trick {n} of {m}",
  winner: "Winner", date: "Date", players: "Players", totals: "Totals", rules_heading: "Rules of the game",
  rules_detail: "The detailed options: ", rules_no_undo: "There is no undo: a card played is final.",
  trick_points: { one: "1 point", other: "{n} points" },

  // -- tables with others
  mp_heading: "Play with friends and strangers",
  mp_code: "Table code", mp_join: "Join", mp_watch: "Watch",
  mp_bad_code: "A table code has 8 letters and digits, e.g. K7QM-4XPA.",
  mp_create: "Create a table", mp_create_button: "Create the table",
  mp_timer: "Time per turn", mp_timer_none: "No limit", mp_timer_n: "{n} s per turn",
  mp_bot_level: "Bot level", mp_fill: "Bots fill empty seats", mp_public: "Public (listed in the lobby)",
  mp_spectators: "Spectators allowed", mp_ranked: "Ranked", mp_ranked_needs: "sign in first",
  mp_ranked_short: "ranked", mp_friendly: "friendly",
  mp_lobby: "Public tables", mp_lobby_empty: "No public table right now: create one!",
  mp_lobby_seats: { one: "1 free seat", other: "{n} free seats" },
  mp_lobby_full: "no free seat", mp_lobby_playing: "playing", mp_lobby_waiting: "waiting for players", mp_lobby_over: "game over",
  mp_players: "Players", mp_player: "Player",
  mp_table: "Table", mp_share: "Invite others with the link or the code", mp_link: "Link to the table",
  mp_copy: "Copy link", mp_copied: "Link copied", mp_share_button: "Share…",
  mp_share_text: "Come and play Hearts at my table: code {code}",
  mp_host: "host", mp_empty_seat: "Empty seat", mp_offline: "offline", mp_online: "online", mp_bot: "computer",
  mp_away: "away, a bot plays", mp_left: "left, a bot plays",
  mp_sit: "Take a seat", mp_start: "Start the game", mp_leave: "Leave the table",
  mp_leave_q: "Leave the table?", mp_leave_text: "The game goes on without you: a computer player takes your seat until the end, and you cannot come back to it.",
  mp_leave_yes: "Leave", mp_stay: "Stay",
  mp_seated: { one: "1 person seated", other: "{n} people seated" },
  mp_wait_second: "Waiting for a second person to sit down; then the host can start.",
  mp_wait_full: { one: "Waiting for 1 more person: the game starts when every seat is taken.", other: "Waiting for {n} more people: the game starts when every seat is taken." },
  mp_wait_host: "Waiting for the host to start the game.",
  mp_wait_you: "Everyone can start: press “Start the game” when you are ready.",
  mp_bots_fill: { one: "1 empty seat goes to a computer player.", other: "{n} empty seats go to computer players." },
  mp_spectating: "you are watching", mp_quick: "Quick messages", mp_mute: "Mute {name}",
  mp_rematch: "Rematch",
  mp_notice_timeout: "Time ran out: the server played for {name}.",
  mp_notice_stand_in: "{name} is away: a bot plays until they are back.",
  mp_notice_back: "{name} is back.",
  mp_notice_left: "{name} left the table.",
  qm_hello: "Hello!", qm_well_played: "Well played!", qm_thanks: "Thanks!", qm_oops: "Oops!",
  qm_sorry: "Sorry!", qm_nice_try: "Nice try!", qm_good_game: "Good game!", qm_bye: "Bye!",

  // -- accounts
  acc_heading: "Your account", acc_nickname: "Nickname", acc_password: "Password",
  acc_login: "Sign in", acc_register: "Create an account", acc_logout: "Sign out", acc_profile: "Your profile",
  acc_signed_in: "Signed in as {name} (rating {rating}).",
  acc_why: "Playing needs no account; ranked games do.",
  acc_rules: "A nickname has 3 to 24 letters, digits, - or _; a password 8 characters or more.",
  lb_heading: "Leaderboard", lb_rating: "Rating", lb_games: "Ranked games", lb_wins: "Wins", lb_rank: "Rank",
  lb_empty: "Nobody has played a ranked game yet.",
  pf_games: "Games", pf_ranked: "Ranked games", pf_avg: "Average points per deal", pf_moons: "Moons shot",
  pf_queens: "Queens of spades taken", pf_chart: "Rating after each ranked game", pf_none: "No player with this nickname.",
  pf_game: "Ranked game",

  // -- advice reasons from the bots, by code (docs/bots.md)
  reason_only_card: "the only legal card", reason_shoots_moon: "goes for the moon", reason_stops_moon: "stops a shot at the moon",
  reason_dumps_queen: "gets rid of the queen of spades", reason_gives_points: "gives points to another player",
  reason_takes_points: "takes points", reason_takes_jack: "takes the jack of diamonds",
  reason_wins_trick: "wins a trick without points", reason_ducks: "ducks under the winning card",
  reason_follows_low: "follows low", reason_follows_high: "follows high", reason_follows_under: "plays under the winning card",
  reason_smokes_queen: "leads spades to draw out the queen",
  reason_leads_low: "leads a low card", reason_leads_high: "leads a high card", reason_leads_hearts: "leads hearts",
  reason_unguards_queen: "leaves the queen of spades unguarded", reason_keeps_queen_guarded: "keeps the queen of spades guarded",
  reason_voids_clubs: "gets rid of its last club", reason_voids_diamonds: "gets rid of its last diamond",
  reason_voids_hearts: "gets rid of its last heart", reason_voids_spades: "gets rid of its last spade",
  reason_discards_high: "discards a high card", reason_discards_low: "discards a low card",
  reason_passes_queen: "passes the queen of spades away",
  reason_passes_high_spades: "passes high spades", reason_passes_high_hearts: "passes high hearts",
  reason_passes_high_cards: "passes high cards", reason_passes_low_cards: "passes low cards", reason_no_advice: "",

  // -- seat names the server gives computer players
  seat_West: "West", seat_North: "North", seat_East: "East", "seat_North-West": "North-West", "seat_North-East": "North-East",
  seat_You: "You", seat_Vous: "You",

  // -- the score keeper (web/scorer)
  sc_title: "Score keeper",
  sc_tagline: "Hearts with real cards: the sheet adds up, checks each deal and says who won.",
  sc_newSheet: "New sheet", sc_players: "Players", sc_playerN: "Player {n}", sc_addPlayer: "Add a player",
  sc_removePlayer: "Remove {name}", sc_playersHint: "3 to 6 players, in seating order (passing left goes to the next one).",
  sc_rules: "Rules", sc_target: "The game ends at", sc_targetOther: "other",
  sc_moonRule: "Shooting the moon (taking every point card)",
  sc_moonOthers: "+{n} to each of the others", sc_moonSelf: "−{n} for the shooter", sc_moonOff: "no moon",
  sc_jack: "J♦ takes off 10 points", sc_queen: "Q♠ is worth", sc_blackMaria: "Black Maria: K♠ 10 and A♠ 7 score too",
  sc_create: "Start the sheet", sc_yourSheets: "Your sheets on this device", sc_noSheets: "No sheet yet.",
  sc_deal: "Deal", sc_dealN: "Deal {n}", sc_pass: "Pass",
  sc_pass_left: "pass left", sc_pass_right: "pass right", sc_pass_across: "pass across", sc_pass_none: "no pass",
  sc_dealGives: "A deal gives {n} points.", sc_jackHint: "Count the J♦ as −10.",
  sc_sumNow: "Sum so far: {sum} of {total}", sc_save: "Save the deal", sc_saveEdit: "Save deal {n}",
  sc_orMoon: "Or, in one tap:", sc_moonBy: "Moon shot by {name}", sc_jackTakenBy: "J♦ taken by", sc_theShooter: "the shooter",
  sc_editing: "Correcting deal {n}", sc_cancel: "Cancel", sc_edit: "Edit", sc_editDeal: "Edit deal {n}",
  sc_deleteDeal: "Delete deal {n}", sc_confirmDelete: "Delete deal {n}?", sc_undo: "Undo the last change",
  sc_total: "Total", sc_moonTag: "moon", sc_chart: "Totals deal by deal", sc_targetLine: "target {n}",
  sc_share: "Share with the table", sc_shareHint: "Anyone with this link sees the sheet, read-only, updated live.",
  sc_copy: "Copy link", sc_copied: "Link copied", sc_exportLabel: "Export:", sc_exportTitle: "Keep a copy", sc_print: "Print",
  sc_readOnly: "Read-only view: it updates by itself after each deal.", sc_live: "live", sc_offline: "reconnecting…",
  sc_gameOver: "Game over", sc_tie: "Tie", sc_wonBanner: "{name} wins!", sc_rulesSummary: "to {target}",
  sc_summaryMoonOthers: "moon +{n} to the others", sc_summaryMoonSelf: "moon −{n} to the shooter", sc_summaryMoonOff: "no moon",
  sc_summaryJack: "J♦ −10", sc_summaryQueen: "Q♠ {n}", sc_summaryBM: "Black Maria",
  sc_badInput: "Check the entry: {detail}", sc_notWhole: "{name}: {value} is not a whole number",
  sc_targetWhole: "Give the target as a whole number of points.", sc_network: "The server cannot be reached. Try again.",
  sc_loading: "Loading…", sc_nextPass: "Next: deal {n}, {pass}",
  // The score keeper's refusals and status, by the server's code (scorer/messages.py) and params.
  scm_players_count: (p) => `a sheet needs 3 to 6 players, not ${p.count}`,
  scm_player_name_empty: (p) => `player ${p.position} has no name`,
  scm_player_name_long: (p) => `the name '${p.name}' is too long (${p.length} characters, ${p.limit} at most)`,
  scm_player_name_twice: (p) => `two players are called ${p.name}`,
  scm_target_range: (p) => `the target must be between 1 and ${p.limit}, not ${p.target}`,
  scm_queen_points: (p) => `the queen of spades is worth 13 or 12, not ${p.value}`,
  scm_points_count: (p) => `${p.players} players, but ${p.count} scores given`,
  scm_points_negative: (p) => `${p.player} has ${p.points}: points cannot be negative (no jack of diamonds on this sheet)`,
  scm_points_below_jack: (p) => `${p.player} has ${p.points}: the jack of diamonds takes off 10 points at most, nobody goes below -10`,
  scm_points_too_many: (p) => `${p.player} has ${p.points}, but a deal only gives ${p.limit} points: ${points(p.points - p.limit)} too many`,
  scm_jack_twice: (p) => `${names(p.players)} have negative points, but only one player takes the jack of diamonds`,
  scm_sum_short: (p) => `the points add up to ${p.total}, a deal gives ${p.expected}: ${p.difference === 1 ? "1 point is missing" : `${p.difference} points are missing`}`,
  scm_sum_over: (p) => `the points add up to ${p.total}, a deal gives ${p.expected}: ${points(p.difference)} too many`,
  scm_moon_off: () => "the moon is not played on this sheet: enter each player's points",
  scm_jack_off: () => "the jack of diamonds is not played on this sheet",
  scm_entry_empty: () => "enter each player's points or who shot the moon",
  scm_entry_both: () => "enter each player's points or who shot the moon, not both",
  scm_nothing_to_undo: () => "nothing to undo",
  scm_winner: (p) => `${p.player} wins with ${points(p.total)}`,
  scm_tie: (p) => `${names(p.players)} are tied on ${points(p.total)}: play another deal`,
  scm_playing: (p) => (p.players.length === 1 ? `${p.players[0]} leads` : `${names(p.players)} lead`),

  // -- the rules and strategy guide pages (HTML)
  rules_html: `<h1>The rules of Hearts (Dame de pique)</h1>
<p>Four players (three and five are possible) each get thirteen cards. The aim is to take as <strong>few points</strong> as possible: every heart is worth 1 point and the queen of spades 13. The game ends after the deal in which someone reaches the target (100 points, or 50 for a short game); the lowest total wins. If several players tie for the lowest total, deals go on until one player alone is lowest.</p>
<h2>Passing</h2>
<p>Before each deal's play, everyone passes three cards: to the left on the first deal, then to the right, then across, then no passing, and again. With three or five players: left, right, none. You see the cards you receive once everybody has passed.</p>
<h2>Playing</h2>
<p>The player holding the two of clubs leads it to the first trick. Everyone must follow the suit that was led if they can; otherwise they may play any card. The highest card of the suit led takes the trick and leads the next one.</p>
<ul>
<li>No points on the first trick: no heart and not the queen of spades, unless your hand holds nothing else.</li>
<li>Hearts cannot be led until a heart has been played on an earlier trick (hearts are “broken”), unless you hold only hearts. The queen of spades does not break hearts.</li>
</ul>
<h2>Shooting the moon</h2>
<p>If one player takes every heart and the queen of spades, they “shoot the moon”: they score 0 and every other player scores 26.</p>
<h2>Variants offered here</h2>
<p>The home page lets you choose a preset or change any option:</p>`,
  guide_html: `<h1>Strategy guide</h1>
<p>These are the ideas the damepique computer players use; the training mode shows them card by card.</p>
<h2>Passing</h2>
<ul>
<li>Pass the queen of spades unless you hold four or more spades to protect her; pass the ace and king of spades if you do not hold the queen with enough cover.</li>
<li>Try to empty a short suit (clubs or diamonds): a void lets you discard points later.</li>
<li>High hearts are dangerous; low cards of every suit are precious — keep them to duck under tricks.</li>
<li>Remember what you passed and to whom: your neighbour now holds those cards.</li>
</ul>
<h2>Playing</h2>
<ul>
<li><strong>Duck</strong>: when you cannot win cheaply, play the highest card that still stays under the card winning the trick.</li>
<li>Lead low cards of suits where others still have cards; lead spades below the queen to “smoke her out” if you do not hold her.</li>
<li>When you are void, discard the queen of spades first, then high hearts, then high cards of dangerous suits.</li>
<li>Count the cards: the training mode shows what has been played, suit by suit, and the voids each player has shown.</li>
</ul>
<h2>The moon</h2>
<ul>
<li>Try for the moon only with many high hearts and control of the other suits.</li>
<li>When someone else is taking every point, keep one heart or take one trick with points to stop them: a few points for you save 26.</li>
</ul>
<h2>Scoring the training mode</h2>
<p>For each legal card the advice shows the expected points for you at the end of the deal (lower is better), estimated by playing out many possible deals consistent with what you know, and a short reason. After each deal, the review lists the tricks where your card differed from the expert's, with the estimated cost of your choice.</p>`,
};
