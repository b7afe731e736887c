/** Bundle-size ceilings (scripts/bench/budget.ts): fails when the bundles grow beyond them. */
import { describe, expect, it } from 'vitest';
import { SIZE_BUDGET } from '../../scripts/bench/budget';
import { attribution, benchSize, LIST_WORKER_PROGRAM, RECEIVER_PROGRAM, WORKER_PROGRAM } from '../../scripts/bench/size';

describe('bundle size', () => {
  it('stays within the budget', { timeout: 60_000 }, async () => {
    const [client, wallet, worker, receiver, listWorker] = await benchSize();
    console.log(
      `[size] initial chunk ${client.initialGzip} B (ceiling ${SIZE_BUDGET.initial}), with the first call ${client.firstCallGzip} B (ceiling ${SIZE_BUDGET.firstCall}), ` +
        `one file ${client.oneFileGzip} B (ceiling ${SIZE_BUDGET.oneFile}), wallet ${wallet.initialGzip} B (ceiling ${SIZE_BUDGET.wallet}), ` +
        `worker one file ${worker.oneFileGzip} B (ceiling ${SIZE_BUDGET.worker})`,
    );
    expect(client.initialGzip).toBeLessThanOrEqual(SIZE_BUDGET.initial);
    expect(client.firstCallGzip).toBeLessThanOrEqual(SIZE_BUDGET.firstCall);
    expect(client.oneFileGzip).toBeLessThanOrEqual(SIZE_BUDGET.oneFile);
    expect(wallet.initialGzip).toBeLessThanOrEqual(SIZE_BUDGET.wallet);
    expect(worker.oneFileGzip).toBeLessThanOrEqual(SIZE_BUDGET.worker);
    // Issue 50 §6: a receiver without the client, and the worker that only lists no larger than it was.
    console.log(
      `[size] webhook receiver one file ${receiver.oneFileGzip} B (ceiling ${SIZE_BUDGET.receiver}), list-only worker ${listWorker.oneFileGzip} B (ceiling ${SIZE_BUDGET.listWorker})`,
    );
    expect(receiver.oneFileGzip).toBeLessThanOrEqual(SIZE_BUDGET.receiver);
    expect(listWorker.oneFileGzip).toBeLessThanOrEqual(SIZE_BUDGET.listWorker);
    // Importing only what it uses pays: the worker is smaller than the full client by the resources and the recorder.
    expect(client.oneFileGzip - worker.oneFileGzip).toBeGreaterThan(4_000);
    // The first call loads its checks, not the document's schemas nor zod, nor what webhook handling needs.
    expect(client.firstCallGzip).toBeGreaterThan(client.initialGzip);
    expect(
      client.initialTop.some(([input]) => input.startsWith('src/webhooks/') || input.startsWith('zod/') || input.startsWith('src/generated/checks/components')),
    ).toBe(false);
    expect(client.oneFileTop.some(([input]) => input.startsWith('zod/') || input.endsWith('zod.gen.ts'))).toBe(false);
  });

  it('the worker holds no code of an optional part it was not given', { timeout: 60_000 }, async () => {
    // Through the worker's source map: every byte of it is one of these modules.
    const { total, modules, code } = await attribution(WORKER_PROGRAM);
    expect(modules.reduce((n, m) => n + m.gzip, 0)).toBe(total);
    const held = modules.map((m) => m.module);
    expect(held).toContain('src/core/client.ts');
    expect(held).toContain('src/webhooks/verify.ts');
    // The telemetry gate and recorder, the checks (request, response, event, inline) and the logger's own code.
    const partsCode = /^src\/(core\/(telemetry|telemetry-record|parts|validation|checks|issues)\.ts|generated\/(checks\/|request-checks|response-checks))/;
    expect(held.filter((m) => partsCode.test(m))).toEqual([]);
    // The multipart encoder comes with the row of the one operation that sends such a body (the CSV import): a
    // worker that only lists holds none of it.
    expect(held).not.toContain('src/core/form.ts');
    // validateResponses needs the responseChecks part: the check of each answer and the console warning of its drift
    // are the part's code, not the core's.
    expect(code).not.toContain('responseChecks.response(');
    expect(code).not.toContain('[crossborder-sdk]');
    // The text of a drift warning is written by the log (the logging part) or the console fallback (responseChecks):
    // a core with neither holds only the onValidationIssue hook.
    expect(code).not.toContain('differs from the document');
  });

  it('the webhook receiver (crossborder-sdk/webhooks) holds verification and event typing, nothing of the request pipeline', { timeout: 60_000 }, async () => {
    const { total, modules, code } = await attribution(RECEIVER_PROGRAM);
    expect(modules.reduce((n, m) => n + m.gzip, 0)).toBe(total);
    const held = modules.map((m) => m.module).filter((m) => m.startsWith('src/') || !m.startsWith('('));
    // Verification, the envelope and the known event types (the generated list of them, not the operation rows).
    for (const needed of ['src/webhooks/verify.ts', 'src/webhooks/events.ts', 'src/webhooks/unwrap.ts', 'src/webhooks/receiver.ts'])
      expect(held).toContain(needed);
    expect(code.toLowerCase()).toContain('x-service-signature');
    expect(code).toContain('OUTGOING_PAYMENT.COMPLETED');
    // No client, transport, retries, answers, settings, pagination, no openapi-fetch, no operation row.
    const pipeline =
      /^src\/core\/(client|transport|retry|answers|settings|pagination|api-promise|dispatcher|call-options|wire|logger|errors)\.ts$|^openapi-fetch$/;
    expect(held.filter((m) => pipeline.test(m))).toEqual([]);
    expect(code).not.toContain('/customers');
    // The worker that lists holds the pipeline (the test can tell) and no webhook verification.
    const list = (await attribution(LIST_WORKER_PROGRAM)).modules.map((m) => m.module);
    expect(list).toContain('src/core/transport.ts');
    expect(list.filter((m) => m.startsWith('src/webhooks/'))).toEqual([]);
    // Nor the signed retry: it comes with the rows of writes (their `signing`), and this worker only reads.
    expect(list.filter((m) => /^src\/core\/(signed-retry|request|sca|form)\.ts$/.test(m))).toEqual([]);
    // A worker that writes holds it.
    const writer = LIST_WORKER_PROGRAM.replaceAll('listCustomers', 'createCustomer').replace(
      'for await (const customer of createCustomer(core, { limit: 20 })) ids.push(customer.id);',
      "ids.push((await createCustomer(core, { customerType: 'INDIVIDUAL' } as never)).id);",
    );
    expect(writer).not.toContain('for await');
    expect((await attribution(writer)).modules.map((m) => m.module)).toContain('src/core/signed-retry.ts');
  });
});
