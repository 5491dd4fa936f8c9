// A newline-delimited JSON stream the server keeps open (GET /api/stream/event,
// GET /api/tournaments/{code}/changes), read while the page that opened it is
// shown: `onLine` gets each object, or null for an empty line (the first says
// the server is listening: nothing after it is missed; later ones keep it open).
// It stops when the page changes (hash) or `root` leaves the document.
export async function follow(url, root, onLine) {
  const stop = new AbortController();
  window.addEventListener("hashchange", () => stop.abort(), { once: true });
  let r;
  try {
    r = await fetch(url, { signal: stop.signal });
  } catch { return; }
  if (!r.ok || !r.body) return;
  const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || !root.isConnected) break;
      text += value;
      const lines = text.split("\n");
      text = lines.pop();
      for (const line of lines) await onLine(line.trim() ? JSON.parse(line) : null);
    }
  } catch { /* the page went away: the stream is closed */ }
  stop.abort();
}
