/**
 * "Did you mean …?" for a name that is not one of a known set (a misspelt option), written once.
 * @module
 */
import { ConfigurationError } from './errors';

/** Edit distance (Levenshtein: insertions, deletions, substitutions) between two names, compared without case. */
export function editDistance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The known name `name` most likely means, or undefined when none is close: the same name in another
 * case (`baseURL` → `baseUrl`), one a few edits away (at most a third of its length, `timout` →
 * `timeout`), or one that contains it or is contained in it (`secret` → `clientSecret`).
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance && distance <= Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 3))) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  if (lower.length < 3) return undefined;
  return known.find((candidate) => {
    const c = candidate.toLowerCase();
    return c.includes(lower) || (c.length >= 3 && lower.includes(c));
  });
}

/**
 * The message for an unknown name among `known`: `Unknown client option baseURL. Did you mean baseUrl?`,
 * or the list of known names when none is close. `what`: e.g. `client option`.
 */
export function unknownNameMessage(what: string, name: string, known: readonly string[]): string {
  const meant = closestName(name, known);
  return meant === undefined ? `Unknown ${what} ${name}; the ${what}s are ${known.join(', ')}` : `Unknown ${what} ${name}. Did you mean ${meant}?`;
}

/**
 * Refuses an option that is not among `known`, naming the one it may mean: a misspelt option ignored
 * (`baseURL`) would send the calls, with the credentials, somewhere else than meant. TypeScript's
 * excess-property check misses options passed through a variable, and JavaScript has none.
 */
export function checkOptionNames(options: object, known: readonly string[], what: string): void {
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) throw new ConfigurationError(unknownNameMessage(what, name, known));
  }
}
