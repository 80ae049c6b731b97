// A report exported with `xagent inspect <session> --export run.html` carries its chart and records
// in the page itself (no server, no network); a page served by the inspector has none.

/** `{chart, records}` from the page's own `<script id="xagent-run">`, or null when served live. */
export function embeddedRun() {
  const node = document.getElementById('xagent-run');
  if (!node) return null;
  try {
    return JSON.parse(node.textContent);
  } catch {
    return null;
  }
}
