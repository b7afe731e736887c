/**
 * node:crypto where the runtime has it, WebCrypto elsewhere (src/webhooks/verifier.ts): the choice, and
 * one answer for every vector from both. The runtime matrix runs the same vectors in each runtime.
 */
import * as nodeCrypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importWebhookPublicKey, verifyWebhookSignature } from '../../src/webhooks/index';
import { base64ToBytes, derToP1363, utf8 } from '../../src/webhooks/encoding';
import {
  findNodeCrypto,
  nodeCryptoVerifier,
  signatureVerifier,
  webCryptoVerifier,
  type NodeCryptoLike,
  type SignatureVerifier,
} from '../../src/webhooks/verifier';
import { signatureVectors } from './vectors';

const vectors = signatureVectors();

/** What verifyWebhookSignature answers: `ok` or the error's reason. */
async function outcome(vector: (typeof vectors)[number]): Promise<string> {
  return verifyWebhookSignature(vector.body, { 'x-service-signature': vector.header }, vector.key).then(
    () => 'ok',
    (error: { reason?: string }) => String(error.reason),
  );
}

/** What one verifier says of a vector whose signature parses (`undefined` when the DER reader refuses it). */
async function verdictOf(verifier: SignatureVerifier, vector: (typeof vectors)[number]): Promise<boolean | undefined> {
  const der = base64ToBytes(vector.header)!;
  if (!derToP1363(der)) return undefined;
  return verifier.verify(await importWebhookPublicKey(vector.key), der, utf8(vector.body));
}

describe('the signature verifier', () => {
  it('on Node is node:crypto, found through process.getBuiltinModule, and answers synchronously', async () => {
    expect(findNodeCrypto()).toBe(process.getBuiltinModule('node:crypto'));
    const verifier = signatureVerifier();
    expect(verifier.name).toBe('node:crypto');
    expect(signatureVerifier()).toBe(verifier);
    // Every key form (PEM, uncompressed and compressed hex) reaches node:crypto: a boolean, not a promise.
    const answers: [string, unknown][] = [];
    for (const vector of vectors) {
      const der = base64ToBytes(vector.header)!;
      if (derToP1363(der)) answers.push([vector.name, verifier.verify(await importWebhookPublicKey(vector.key), der, utf8(vector.body))]);
    }
    expect(answers).toEqual(vectors.filter((v) => v.expect !== 'malformed_signature').map((v) => [v.name, v.expect === 'ok']));
  });

  it('each vector gives what it must through verifyWebhookSignature', async () => {
    const got = await Promise.all(vectors.map(async (v) => [v.name, await outcome(v)]));
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(vectors.map((v) => [v.name, v.expect])));
    expect(new Set(vectors.map((v) => v.expect))).toEqual(new Set(['ok', 'malformed_signature', 'invalid_signature']));
  });

  it('node:crypto and WebCrypto agree on every vector that parses', async () => {
    const node = nodeCryptoVerifier(nodeCrypto as unknown as NodeCryptoLike);
    let compared = 0;
    for (const vector of vectors) {
      const web = await verdictOf(webCryptoVerifier, vector);
      const viaNode = await verdictOf(node, vector);
      expect([vector.name, viaNode]).toEqual([vector.name, web]);
      if (web !== undefined) {
        expect([vector.name, web]).toEqual([vector.name, vector.expect === 'ok']);
        compared++;
      }
    }
    expect(compared).toBe(vectors.filter((v) => v.expect !== 'malformed_signature').length);
  });

  it("node:crypto's synchronous check reads the strict DER as the header carried it, and agrees with WebCrypto on every vector", async () => {
    const node = nodeCryptoVerifier(nodeCrypto as unknown as NodeCryptoLike);
    const seen: [string, boolean | undefined, boolean | undefined][] = [];
    for (const vector of vectors) {
      const der = base64ToBytes(vector.header)!;
      // What the header parser lets through: what the strict DER reader accepts.
      if (!derToP1363(der)) continue;
      seen.push([vector.name, node.verifyNow!(await importWebhookPublicKey(vector.key), der, utf8(vector.body)), await verdictOf(webCryptoVerifier, vector)]);
    }
    expect(seen).toEqual(vectors.filter((v) => v.expect !== 'malformed_signature').map((v) => [v.name, v.expect === 'ok', v.expect === 'ok']));
  });

  it("a caller's CryptoKey: extractable goes to node:crypto through KeyObject.from, non-extractable to WebCrypto", async () => {
    const vector = vectors[0]!;
    const spki = nodeCrypto.createPublicKey(vector.key).export({ format: 'der', type: 'spki' });
    const used: string[] = [];
    const spy = {
      verify: (...args: Parameters<typeof nodeCrypto.verify>) => (used.push('node'), nodeCrypto.verify(...args)),
      KeyObject: nodeCrypto.KeyObject,
      createPublicKey: nodeCrypto.createPublicKey,
    };
    const verifier = nodeCryptoVerifier(spy as never);
    const signature = base64ToBytes(vector.header)!;
    for (const extractable of [true, false]) {
      const key = await crypto.subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: 'P-256' }, extractable, ['verify']);
      const answer = verifier.verify(key, signature, utf8(vector.body));
      expect([extractable, answer instanceof Promise, await answer]).toEqual([extractable, !extractable, true]);
    }
    expect(used).toEqual(['node']);
  });

  it('without process.getBuiltinModule (a browser, a worker) nothing is found', () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
    try {
      Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
      expect(findNodeCrypto()).toBeUndefined();
      Object.defineProperty(globalThis, 'process', { value: { getBuiltinModule: () => undefined }, configurable: true, writable: true });
      expect(findNodeCrypto()).toBeUndefined();
      Object.defineProperty(globalThis, 'process', {
        value: {
          getBuiltinModule: () => {
            throw new Error('no');
          },
        },
        configurable: true,
        writable: true,
      });
      expect(findNodeCrypto()).toBeUndefined();
    } finally {
      Object.defineProperty(globalThis, 'process', saved);
    }
  });
});
