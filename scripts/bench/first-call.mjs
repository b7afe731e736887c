// Child process of the startup benchmark (plain JavaScript: nothing between node and the package).
// One cold process, one call to the server at URL: `sdk` imports the package as built (dist/, by the
// name `crossborder-sdk` from a consumer directory), constructs a client and makes one
// `customers.list()`; `raw` makes one GET with `fetch` and the same timeout mechanism.
// Prints milliseconds: import (with construction), the first call, and both.
//   node first-call.mjs URL sdk|raw
const [base, mode = 'sdk'] = process.argv.slice(2);
const t0 = performance.now();
let t1;
if (mode === 'sdk') {
  const { Crossborder } = await import('crossborder-sdk');
  const cb = new Crossborder({ tokenId: 'tok', clientSecret: 'sec', baseUrl: base, environment: 'sandbox' });
  t1 = performance.now();
  await cb.customers.list({ limit: 20 });
} else {
  const GLOBAL = Symbol.for('undici.globalDispatcher.1');
  const dispatcher = {
    dispatch(options, handler) {
      options.headersTimeout = 60_000;
      options.bodyTimeout = 60_000;
      return globalThis[GLOBAL].dispatch(options, handler);
    },
  };
  t1 = performance.now();
  const response = await fetch(`${base}/2025-10-13/customers?limit=20`, {
    headers: { authorization: `Basic ${btoa('tok:sec')}`, accept: 'application/json' },
    dispatcher,
  });
  await response.json();
}
const t2 = performance.now();
console.log(JSON.stringify({ importMs: t1 - t0, callMs: t2 - t1, totalMs: t2 - t0 }));
