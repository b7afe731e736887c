/**
 * Deterministic randomness for the sandbox: a seeded PRNG and the id factory built on it, so that two
 * sandboxes created with the same seed hand out the same ids, references and codes in the same order.
 * (Keys are the exception: session and webhook keys come from WebCrypto, as they must be secret.)
 * @module
 */

/** A seeded pseudo-random source. Not for secrets. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, max). */
  int(max: number): number;
  /** `length` lower-case hex characters. */
  hex(length: number): string;
  /** `length` characters of `alphabet`. */
  pick(alphabet: string, length: number): string;
}

/** mulberry32: small, fast and good enough to make ids look random. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return fromNext(next);
}

/**
 * A source seeded from the platform's cryptographic generator: different in every process, so ids made
 * from it (webhook event ids) never repeat across restarts. Not reproducible by design.
 */
export function createUniqueRandom(): Random {
  const words = new Uint32Array(64);
  let used = words.length;
  const next = (): number => {
    if (used === words.length) {
      globalThis.crypto.getRandomValues(words);
      used = 0;
    }
    return words[used++]! / 4294967296;
  };
  return fromNext(next);
}

/**
 * Makes `<Prefix>:<id>` identifiers. The id is UUID-shaped: a counter in the first group (so ids sort in
 * creation order, like UUIDv7) and PRNG hex after it (so they look random and are not guessable by +1).
 */
export class IdFactory {
  #counter = 0;
  readonly #random: Random;

  constructor(random: Random) {
    this.#random = random;
  }

  /** The sequence number the next id will carry. */
  get nextSequence(): number {
    return this.#counter + 1;
  }

  /** Continues after `seq` (after a state import, so new ids never collide with imported ones). */
  continueAfter(seq: number): void {
    if (seq > this.#counter) this.#counter = seq;
  }

  /** A fresh id and its sequence number (used to order records created in the same millisecond). */
  next(prefix: string): { id: string; seq: number } {
    const seq = ++this.#counter;
    const r = this.#random;
    const id = `${prefix}:${seq.toString(16).padStart(8, '0')}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}`;
    return { id, seq };
  }
}

/** The rest of a {@link Random}, drawn from its `next`. */
function fromNext(next: () => number): Random {
  const int = (max: number) => Math.floor(next() * max);
  const pick = (alphabet: string, length: number) => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[int(alphabet.length)];
    return out;
  };
  return { next, int, pick, hex: (length) => pick('0123456789abcdef', length) };
}
