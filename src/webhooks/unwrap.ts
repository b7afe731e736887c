/**
 * What `Webhooks.unwrap` and `Webhooks.verify` run of src/webhooks/ (src/resources/webhooks.ts), loaded
 * on the first delivery. A module loaded by `import()` keeps all its exports in a bundle: this one
 * exports only what those two call, so that events.ts and verify.ts are not held whole (their other
 * exports serve `crossborder-sdk/webhooks`).
 * @module
 */
export { readWebhook, toUnknownEvent, withEnvelopeIssues, withIssues, withParseFailure } from './events';
export { verifyWebhookSignature } from './verify';
