// History, replay, rules and strategy guide pages; the totals chart (SVG).
import { cardName, currentLang, refusalText, seatName, t } from "./i18n.js";
import { cardChip, cardFace, esc, sortHand } from "./cards.js";
import { available as canVerify, verifyRecord } from "./fairness.js";

const COLOURS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df"];

// A line chart of running totals, deal by deal; no external service.
export function totalsChart(pointsByDeal, names) {
  const n = names.length;
  const totals = [Array(n).fill(0)];
  for (const pts of pointsByDeal) totals.push(totals[totals.length - 1].map((x, i) => x + pts[i]));
  const W = 560, H = 260, L = 40, R = 110, T = 16, B = 32;
  const maxY = Math.max(10, ...totals.flat());
  const minY = Math.min(0, ...totals.flat());
  const xs = (k) => L + (k * (W - L - R)) / Math.max(1, totals.length - 1);
  const ys = (y) => T + ((maxY - y) * (H - T - B)) / (maxY - minY || 1);
  const lines = names
    .map((name, i) => {
      const pts = totals.map((row, k) => `${xs(k).toFixed(1)},${ys(row[i]).toFixed(1)}`).join(" ");
      const last = totals[totals.length - 1][i];
      return `<polyline fill="none" stroke="${COLOURS[i % 5]}" stroke-width="2.5" points="${pts}"/>
        <text x="${W - R + 8}" y="${ys(last) + 4}" fill="${COLOURS[i % 5]}" font-size="13">${esc(name)} ${last}</text>`;
    })
    .join("");
  const ticks = [];
  const step = maxY > 100 ? 25 : 10;
  for (let y = Math.ceil(minY / step) * step; y <= maxY; y += step) {
    ticks.push(`<line x1="${L}" x2="${W - R}" y1="${ys(y)}" y2="${ys(y)}" stroke="#ccc" stroke-width="0.5"/><text x="${L - 6}" y="${ys(y) + 4}" font-size="11" text-anchor="end">${y}</text>`);
  }
  const xt = totals.map((_, k) => `<text x="${xs(k)}" y="${H - 12}" font-size="11" text-anchor="middle">${k}</text>`).join("");
  const desc = names.map((nm, i) => `${nm}: ${totals.map((r) => r[i]).join(", ")}`).join("; ");
  return `<figure class="chart"><svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc" width="100%">
    <title id="chart-title">${t("chart_title")}</title><desc id="chart-desc">${esc(desc)}</desc>
    ${ticks.join("")}${xt}${lines}</svg><figcaption>${t("chart_title")}</figcaption></figure>`;
}

// ---------------------------------------------------------------- sealed deals

// "Deals verified" (or why not) for a finished game's record, checked here in
// the browser (docs/fairness.md); "" for a game that was never sealed.
export async function sealVerdict(record) {
  if (!record || !record.fairness) return "";
  if (!canVerify()) return `<span class="seal">${esc(t("seal_unavailable"))}</span>`;
  let out;
  try {
    out = await verifyRecord(record);
  } catch {
    out = { verified: false, reason: "error" };
  }
  if (out.verified) return `<span class="seal verified" title="${esc(t("seal_help"))}">✓ ${esc(t("seal_verified"))}</span>`;
  const where = out.deal !== undefined ? ` (${t("deal_n", { n: out.deal + 1 })})` : "";
  return `<span class="seal unverified">✗ ${esc(t("seal_failed"))}${where}</span>`;
}

// Fill each `[data-seal]` element with the verdict on its game's record.
async function fillSeals(root) {
  for (const el of root.querySelectorAll("[data-seal]")) {
    const record = await fetchJSON(`/api/games/${encodeURIComponent(el.dataset.seal)}/record`);
    if (!record || record.error) continue;
    el.innerHTML = await sealVerdict(record);
  }
}

// ---------------------------------------------------------------- history

// A GET that gives up after a few seconds and tries again: a request made while
// the game's WebSocket is closing has been seen to stall in Chromium.
async function fetchJSON(url, options = {}, tries = 4) {
  for (let attempt = 0; attempt < tries; attempt++) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 2500);
    try {
      const r = await fetch(url, { ...options, signal: abort.signal });
      const body = await r.json();
      return r.ok ? body : { error: true, ...body };
    } catch {
      await new Promise((ok) => setTimeout(ok, 300));
    } finally {
      clearTimeout(timer);
    }
  }
  return null;
}

export async function renderHistory(root, { playerId }) {
  root.innerHTML = `<section class="history"><h1>${t("history_heading")}</h1><div id="history-list">…</div>
    <h2><label for="upload">${t("upload")}</label></h2>
    <input type="file" id="upload" accept=".json,application/json">
    <p class="error" id="upload-error" role="alert"></p>
    <div id="replay-root"></div></section>`;
  const data = await fetchJSON("/api/history", { headers: { "X-Player": playerId() }, cache: "no-store" });
  const list = document.getElementById("history-list");
  if (!list) return;
  if (!data || data.error) {
    list.innerHTML = `<p class="error">${t("error", { reason: "history" })}</p>`;
    return;
  }
  if (!data.games.length) list.innerHTML = `<p>${t("history_empty")}</p>`;
  else {
    const fmt = new Intl.DateTimeFormat(currentLang(), { dateStyle: "medium", timeStyle: "short" });
    list.innerHTML = `<table class="history-table"><thead><tr><th scope="col">${t("date")}</th><th scope="col">${t("score_sheet")}</th><th scope="col">${t("winner")}</th><th scope="col"></th></tr></thead><tbody>
      ${data.games
        .map(
          (g) => `<tr><td>${fmt.format(new Date(g.finished * 1000))}</td>
          <td>${g.players.map((p, i) => `${esc(seatName(p))} ${g.totals[i]}`).join(" · ")}</td>
          <td>${g.winner !== null ? esc(seatName(g.players[g.winner])) : ""}</td>
          <td><a href="#/replay/${g.game}">${t("replay")}</a> · <a href="/api/games/${g.game}/record" download>${t("download")}</a>
            <span data-seal="${esc(g.game)}"></span></td></tr>`,
        )
        .join("")}</tbody></table>`;
    fillSeals(list);
  }
  document.getElementById("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const text = await file.text();
    const res = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const out = await res.json();
    const err = document.getElementById("upload-error");
    if (!res.ok) {
      err.textContent = t("upload_bad", { reason: out.reason || res.statusText });
      return;
    }
    err.textContent = "";
    let record = null;
    try {
      record = JSON.parse(text);
    } catch {
      record = null;
    }
    replayViewer(document.getElementById("replay-root"), out, record);
  });
}

export async function renderReplay(root, id) {
  root.innerHTML = `<section class="replay-page"><div id="replay-root">…</div></section>`;
  const data = await fetchJSON(`/api/games/${encodeURIComponent(id)}/replay`);
  if (!data || data.error) {
    root.innerHTML = `<p class="error">${esc(data ? refusalText(data.code, data.reason) : "…")}</p>`;
    return;
  }
  replayViewer(document.getElementById("replay-root"), data);
}

// `record`: the uploaded record itself, to check its seal (a stored game's is fetched).
function replayViewer(root, data, record = null) {
  let seal = "";
  const sealed = record ? sealVerdict(record) : data.game ? fetchJSON(`/api/games/${encodeURIComponent(data.game)}/record`).then(sealVerdict) : null;
  if (sealed) {
    sealed.then((html) => {
      seal = html;
      const el = root.querySelector("#replay-seal");
      if (el) el.innerHTML = html;
    });
  }
  let d = 0;
  let k = 0;
  const n = data.players.length;
  const names = data.players.map((p) => seatName(p));
  const offset = { left: 1, right: n - 1, across: 2, none: 0 };
  const draw = () => {
    const deal = data.deals[d];
    const hands = deal.hands.map((h) => [...h]);
    if (deal.passes.length && deal.passes.every((p) => p)) {
      const off = offset[deal.direction];
      deal.passes.forEach((p, s) => {
        hands[s] = hands[s].filter((c) => !p.includes(c));
      });
      deal.passes.forEach((p, s) => hands[(s + off) % n].push(...p));
    }
    for (let i = 0; i < k; i++) for (const pl of deal.tricks[i].plays) hands[pl.seat] = hands[pl.seat].filter((c) => c !== pl.card);
    const trick = deal.tricks[k];
    root.innerHTML = `<h1>${t("replay")} — ${t("deal_n", { n: d + 1 })}</h1>
      <p id="replay-seal">${seal}</p>
      <p class="actions">
        <button type="button" class="button" data-go="pd" ${d === 0 ? "disabled" : ""}>${t("prev_deal")}</button>
        <button type="button" class="button" data-go="nd" ${d >= data.deals.length - 1 ? "disabled" : ""}>${t("next_deal")}</button>
        <button type="button" class="button" data-go="pt" ${k === 0 ? "disabled" : ""}>${t("prev")}</button>
        <button type="button" class="button" data-go="nt" ${k >= deal.tricks.length - 1 ? "disabled" : ""}>${t("next")}</button>
      </p>
      <p aria-live="polite">${deal.tricks.length ? t("trick_n", { n: k + 1, m: deal.tricks.length }) : ""}</p>
      <div class="replay-trick">${
        trick
          ? trick.plays.map((pl) => `<div class="${pl.seat === trick.winner ? "won" : ""}"><div>${esc(names[pl.seat])}</div>${cardFace(pl.card)}</div>`).join("") +
            (trick.winner !== null ? `<p class="trick-label winner">${esc(t("takes_trick", { name: names[trick.winner] }))} (${trick.points})</p>` : "")
          : ""
      }</div>
      <table class="replay-hands"><tbody>${hands
        .map((h, s) => `<tr><th scope="row">${esc(names[s])}</th><td>${sortHand(h).map(cardChip).join(" ")}</td></tr>`)
        .join("")}</tbody></table>
      ${deal.passes.length ? `<p>${t("passes")} (${t("dir_" + deal.direction)}): ${deal.passes.map((p, s) => `${esc(names[s])}: ${(p || []).map(cardChip).join(" ")}`).join(" · ")}</p>` : ""}
      <p>${deal.complete ? deal.points.map((p, s) => `${esc(names[s])} ${p}${deal.moon === s ? " ☾" : ""}`).join(" · ") : ""}</p>
      ${totalsChart(data.deals.filter((x) => x.complete).map((x) => x.points), names)}
      ${data.game ? `<p><a class="button" href="/api/games/${data.game}/record" download>${t("download")}</a></p>` : ""}`;
  };
  root.onclick = (e) => {
    const go = e.target.closest("[data-go]")?.dataset.go;
    if (!go) return;
    if (go === "pd") (d -= 1), (k = 0);
    if (go === "nd") (d += 1), (k = 0);
    if (go === "pt") k -= 1;
    if (go === "nt") k += 1;
    draw();
    root.querySelector(`[data-go="${go}"]:not([disabled])`)?.focus();
  };
  draw();
}

// ---------------------------------------------------------------- rules and guide

const RULES = {
  en: `
<h1>The rules of Hearts (Dame de pique)</h1>
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
  fr: `
<h1>Les règles de la Dame de pique</h1>
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
};

const PRESET_TEXT = {
  en: {
    standard: "the rules above, to 100 points.",
    short: "the same to 50 points.",
    omnibus: "whoever takes the jack of diamonds scores −10.",
    three_players: "three players, 17 cards each, the 2♦ is removed; pass left, right, none.",
    five_players: "five players, 10 cards each, 2♦ and 2♣ removed, the 3♣ leads.",
    three_players_kitty: "three players; the leftover card lies face down and goes to the winner of the first trick.",
    five_players_kitty: "five players; the two leftover cards go to the winner of the first trick.",
    old_rules: "the player left of the dealer leads any card, and hearts may be led at any time.",
    queen_12: "the queen of spades is worth 12 (the moon is then 25).",
    black_maria: "the king of spades is worth 10 and the ace of spades 7 as well as the queen.",
    deck_36: "a 36-card deck (six to ace), the queen worth 5, one point for the last trick.",
  },
  fr: {
    standard: "les règles ci-dessus, en 100 points.",
    short: "les mêmes en 50 points.",
    omnibus: "celui qui prend le valet de carreau marque −10.",
    three_players: "trois joueurs, 17 cartes chacun, le 2♦ est retiré ; échange à gauche, à droite, aucun.",
    five_players: "cinq joueurs, 10 cartes chacun, 2♦ et 2♣ retirés, le 3♣ entame.",
    three_players_kitty: "trois joueurs ; la carte en trop, face cachée, va au gagnant du premier pli.",
    five_players_kitty: "cinq joueurs ; les deux cartes en trop vont au gagnant du premier pli.",
    old_rules: "le joueur à gauche du donneur entame ce qu'il veut, et on peut entamer à cœur à tout moment.",
    queen_12: "la dame de pique vaut 12 (le grand chelem vaut alors 25).",
    black_maria: "le roi de pique vaut 10 et l'as de pique 7, en plus de la dame.",
    deck_36: "un jeu de 36 cartes (du six à l'as), la dame vaut 5, un point pour le dernier pli.",
  },
};

export async function renderRules(root, getOptions) {
  const lang = currentLang();
  const opts = await getOptions();
  const items = Object.keys(opts.presets)
    .map((p) => `<li><strong>${t("preset_" + p)}</strong> — ${esc(PRESET_TEXT[lang][p] || "")}</li>`)
    .join("");
  root.innerHTML = `<article class="prose">${RULES[lang]}<ul>${items}</ul>
    <p>${lang === "fr" ? "Les options détaillées : " : "The detailed options: "}${[
      "opt_passing", "opt_pass_cycle", "opt_no_points_first_trick", "opt_must_break_hearts", "opt_moon", "opt_jack_of_diamonds",
      "opt_leftover", "opt_queen_points", "opt_first_lead", "opt_deck", "opt_black_maria", "opt_last_trick_points",
    ].map((k) => t(k)).join(" · ")}.</p>
    <p>${lang === "fr" ? "Il n'y a pas d'annulation : une carte jouée est définitive." : "There is no undo: a card played is final."}</p></article>`;
}

const GUIDE = {
  en: `
<h1>Strategy guide</h1>
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
  fr: `
<h1>Guide stratégique</h1>
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

export function renderGuide(root) {
  root.innerHTML = `<article class="prose">${GUIDE[currentLang()]}</article>`;
}

void cardName;
