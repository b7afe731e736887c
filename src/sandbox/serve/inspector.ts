/**
 * The sandbox inspector: one HTML page served at `GET /_sandbox/` (plain HTML and a little script,
 * no build step). It shows customers, accounts with balances, quotes and transactions with their
 * status timelines, webhook deliveries with bodies and answers, and the request log live (Server-Sent
 * Events from `/_sandbox/events`), with buttons for the clock and webhook triggers. It reads the
 * controls with the same Basic credentials as the API (any values work in the sandbox).
 * @module
 */
import { WEBHOOK_EVENT_TYPES } from '../../generated/operations';
import { SANDBOX_CONTROLS } from '../../helpers/sandbox-controls';

/** Every webhook event type, TEST first: the trigger list. */
const TRIGGER_OPTIONS = ['TEST', ...WEBHOOK_EVENT_TYPES.filter((type) => type !== 'TEST')].map((type) => `<option>${type}</option>`).join('');

/** The page. */
export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Crossborder sandbox</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
  header { background: #1d2330; color: #fff; padding: 10px 20px; display: flex; gap: 16px; align-items: center; }
  header h1 { font-size: 16px; margin: 0; flex: 1; }
  header button { font: inherit; padding: 4px 10px; border-radius: 4px; border: 0; cursor: pointer; }
  main { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; padding: 14px 20px; }
  section { background: #fff; border-radius: 6px; padding: 10px 14px; box-shadow: 0 1px 2px #0002; overflow: auto; max-height: 360px; }
  section.wide { grid-column: 1 / -1; }
  h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: #5a6478; margin: 0 0 6px; }
  table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
  td, th { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eef0f3; vertical-align: top; }
  code { font: 12px ui-monospace, monospace; }
  .status { font-weight: 600; } .COMPLETED, .ACTIVE, .APPROVED { color: #0a7a3d; } .FAILED, .REJECTED, .EXPIRED { color: #b3261e; } .PENDING, .PROCESSING { color: #9a6700; }
  .timeline span + span::before { content: ' → '; color: #9aa3b5; }
  .attempt + .attempt { border-top: 1px dashed #eef0f3; } .delivered { color: #0a7a3d; } .failed { color: #b3261e; } .pending { color: #9a6700; }
  pre { margin: 4px 0; white-space: pre-wrap; word-break: break-all; font-size: 11.5px; }
  #log { font: 12px ui-monospace, monospace; }
</style>
</head>
<body>
<header>
  <h1>Crossborder sandbox <small id="now"></small></h1>
  <button id="advance">Advance clock 10 min</button>
  <select id="trigger-type">${TRIGGER_OPTIONS}</select>
  <input id="trigger-resource" placeholder="resource id (optional for TEST)" size="28">
  <button id="trigger">Trigger webhook</button>
</header>
<main>
  <section id="customers"><h2>Customers</h2><table><tbody></tbody></table></section>
  <section id="accounts"><h2>Accounts</h2><table><tbody></tbody></table></section>
  <section id="transactions" class="wide"><h2>Payments</h2><table><tbody></tbody></table></section>
  <section id="quotes"><h2>Quotes</h2><table><tbody></tbody></table></section>
  <section id="deliveries"><h2>Webhook deliveries</h2><table><tbody></tbody></table></section>
  <section class="wide"><h2>Requests (live)</h2><div id="log"></div></section>
</main>
<script>
  const auth = { authorization: 'Basic ' + btoa('sandbox:sandbox') };
  // The page's own reads are marked so the sandbox leaves them out of the request log.
  const read = (path) => fetch(path, { headers: { ...auth, 'x-sandbox-inspector': '1' } }).then((r) => r.json());
  const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const time = (iso) => iso ? new Date(iso).toISOString().slice(11, 19) : '';
  const money = (a) => a ? (a.amount / 10 ** (a.currency?.decimals ?? 2)).toFixed(a.currency?.decimals ?? 2) + ' ' + esc(a.currency?.code) : '';
  const rows = (id, list, row) => { document.querySelector('#' + id + ' tbody').innerHTML = list.map(row).join('') || '<tr><td>none yet</td></tr>'; };
  let refreshes = 0;
  async function refresh() {
    refreshes++;
    const [state, { data: deliveries }] = await Promise.all([read('${SANDBOX_CONTROLS.exportState.path}'), read('${SANDBOX_CONTROLS.deliveries.path}')]);
    const w = state.world;
    document.getElementById('now').textContent = 'clock ' + state.savedAt;
    rows('customers', w.customers.map(([, r]) => r.data), (c) => '<tr><td>' + esc(c.fullName ?? c.businessInfo?.legalName) + '</td><td><code>' + esc(c.id) + '</code></td><td>' + esc(c.umaAddress) + '</td><td class="status ' + esc(c.kycStatus) + '">' + esc(c.kycStatus) + '</td></tr>');
    rows('accounts', [...w.internalAccounts.map(([, r]) => r.data), ...w.externalAccounts.map(([, r]) => r.data)], (a) => a.balance
      ? '<tr><td><code>' + esc(a.id) + '</code></td><td>' + money(a.balance) + '</td><td>internal</td></tr>'
      : '<tr><td><code>' + esc(a.id) + '</code></td><td>' + esc(a.currency) + ' ' + esc(a.accountInfo?.accountType) + '</td><td class="status ' + esc(a.status) + '">' + esc(a.status) + '</td></tr>');
    rows('transactions', w.transactions.map(([, r]) => r), (r) => { const t = r.data; return '<tr><td><code>' + esc(t.id) + '</code></td><td>' + esc(t.type) + '</td><td>' + money(t.receivedAmount) + '</td><td class="timeline">' + (r.timeline ?? [{ status: t.status, at: t.updatedAt }]).map((s) => '<span class="status ' + esc(s.status) + '">' + esc(s.status) + ' <small>' + time(s.at) + '</small></span>').join('') + (t.failureReason ? ' <small>(' + esc(t.failureReason) + ')</small>' : '') + '</td></tr>'; });
    rows('quotes', w.quotes.map(([, r]) => r.data), (q) => '<tr><td><code>' + esc(q.id) + '</code></td><td>' + esc(q.totalSendingAmount) + ' ' + esc(q.sendingCurrency?.code) + ' → ' + esc(q.totalReceivingAmount) + ' ' + esc(q.receivingCurrency?.code) + '</td><td class="status ' + esc(q.status) + '">' + esc(q.status) + '</td></tr>');
    rows('deliveries', deliveries, (d) => '<tr><td>' + esc(d.type) + '<br><small>' + esc(d.endpoint) + '</small><br><small class="status ' + esc(d.state) + '">' + esc(d.state) + '</small></td><td class="attempts">' + d.attempts.map((a) =>
      '<div class="attempt"><small>' + time(a.at) + '</small> <b>' + esc(a.status ?? a.error) + '</b>' + (a.ms !== undefined ? ' <small>' + a.ms + ' ms</small>' : '') +
      (a.response ? '<details><summary>answer' + (a.responseTruncated ? ' (first 4 KB)' : '') + '</summary><pre>' + esc(a.response) + '</pre></details>' : '') + '</div>').join('') +
      '</td><td><details><summary>body</summary><pre>' + esc(d.body) + '</pre></details></td></tr>');
  }
  // One refresh at a time, at most one more queued, and none before a burst of events has paused for
  // 150 ms (or 1 s has passed since the first): a busy sandbox is not read back once per request.
  let running = null, again = false, timer = null, first = 0;
  function run() {
    if (running) { again = true; return; }
    running = refresh().catch(() => {}).finally(() => { running = null; if (again) { again = false; run(); } });
  }
  function schedule() {
    const now = Date.now();
    if (timer === null) first = now;
    clearTimeout(timer);
    timer = setTimeout(() => { timer = null; run(); }, now - first >= 1000 ? 0 : 150);
  }
  window.inspector = { refreshes: () => refreshes };
  const post = (path, body) => fetch(path, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  document.getElementById('advance').onclick = async () => { await post('${SANDBOX_CONTROLS.clock.path}', { advance: '10m' }); schedule(); };
  document.getElementById('trigger').onclick = async () => {
    const resourceId = document.getElementById('trigger-resource').value.trim();
    await post('${SANDBOX_CONTROLS.trigger.path}', { type: document.getElementById('trigger-type').value, ...(resourceId ? { resourceId } : {}) });
    schedule();
  };
  const log = document.getElementById('log');
  const events = new EventSource('${SANDBOX_CONTROLS.events.path}');
  events.onmessage = (m) => {
    const e = JSON.parse(m.data);
    const line = document.createElement('div');
    line.textContent = time(e.at) + '  ' + e.method + ' ' + e.path + ' → ' + e.status + ' ' + e.ms + 'ms ' + (e.requestId ?? '') + (e.replayed ? ' (idempotent replay)' : '');
    log.prepend(line);
    while (log.childElementCount > 500) log.lastElementChild.remove();
    schedule();
  };
  // Changes no request made: the scheduler settled or expired something, a webhook attempt finished.
  events.addEventListener('change', schedule);
  run();
</script>
</body>
</html>
`;
