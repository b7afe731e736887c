/**
 * Following local `$ref`s in an OpenAPI document, written once for the generator, the contract diff
 * and the tests.
 * @module
 */

/**
 * Follows local `$ref`s (`#/components/schemas/X`, JSON Pointer escapes `~1` `~0` read) from `node` in
 * `document` until a node that is not a reference, at most 32 hops (a longer chain is a cycle).
 * @throws Error for a reference outside the document: bundle it first (`npx redocly bundle`).
 */

export function deref(document: unknown, node: any): any {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 32; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref}: only references inside the document are followed (bundle it first)`);
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))

      .reduce<any>((acc, key) => acc?.[key], document);
  }
  return current;
}
