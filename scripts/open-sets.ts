/**
 * The known values of the document's open sets (`x-extensible-enum`), by the name of the field that holds one
 * (`purposeOfPayment`, `type` of a credential), for the CLI's flag help: written into src/generated/cli-docs.ts by
 * scripts/generate.ts, so that no command reads the document at run time. A field whose name holds different open
 * sets in different places, or is a plain string somewhere (an SCA `code`, a rejection's `reason`), is left out.
 * Read by a scan of the document's lines, as the CLI did when it read the document itself.
 */
export function openSetsOf(text: string): Map<string, string[]> {
  const lines = text.split('\n');
  const open = new Map<string, string[]>();
  const indent = (line: string) => line.length - line.trimStart().length;
  const header = /^(\s*)([A-Za-z0-9_]+):\s*$/;
  /** The values of the x-extensible-enum at line i (inline `[a, b]` or a block list below it). */
  const valuesAt = (i: number): string[] => {
    const inline = /x-extensible-enum:\s*\[(.*)\]/.exec(lines[i]!);
    if (inline)
      return inline[1]!
        .split(',')
        .map((v) => v.trim().replace(/^['"]|['"]$/g, ''))
        .filter(Boolean);
    const values: string[] = [];
    for (let j = i + 1; j < lines.length && /^\s+- /.test(lines[j]!); j++)
      values.push(
        lines[j]!.trim()
          .slice(2)
          .trim()
          .replace(/^['"]|['"]$/g, ''),
      );
    return values;
  };
  /** The name of the block line i sits in (the nearest less indented `name:` line above it). */
  const ownerOf = (i: number): { name: string; depth: number } | undefined => {
    const own = indent(lines[i]!);
    for (let j = i - 1; j >= 0; j--) {
      const match = header.exec(lines[j]!);
      if (match && match[1]!.length < own) return { name: match[2]!, depth: match[1]!.length };
      if (lines[j]!.trim() !== '' && indent(lines[j]!) < own && !match) return undefined;
    }
    return undefined;
  };
  const components = new Map<string, string[]>();
  const byField = new Map<string, string[] | null>();
  const put = (name: string, values: string[]) => {
    const had = byField.get(name);
    byField.set(name, had === undefined || (had !== null && had.join() === values.join()) ? values : null);
  };
  lines.forEach((line, i) => {
    if (!line.includes('x-extensible-enum:')) return;
    const owner = ownerOf(i);
    if (!owner) return;
    if (owner.depth === 4) components.set(owner.name, valuesAt(i));
    else put(owner.name, valuesAt(i));
  });
  lines.forEach((line, i) => {
    const ref = /\$ref: '#\/components\/schemas\/([A-Za-z0-9_]+)'/.exec(line);
    if (!ref || !components.has(ref[1]!)) return;
    const owner = ownerOf(i);
    if (owner && owner.depth > 4) put(owner.name, components.get(ref[1]!)!);
  });
  // A field of the same name that is a plain string elsewhere (an SCA `code`, an agent's rejection `reason`) makes
  // the name ambiguous: no known values are shown for it.
  lines.forEach((line, i) => {
    const match = header.exec(line);
    if (!match || match[1]!.length <= 4 || !byField.has(match[2]!)) return;
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j]!.trim() === '' || indent(lines[j]!) > match[1]!.length); j++) block.push(lines[j]!);
    const typed = block.find((l) => /^\s*type:/.test(l));
    if (typed && /\bstring\b/.test(typed) && !block.some((l) => /x-extensible-enum:|\$ref:|^\s*enum:/.test(l))) put(match[2]!, []);
  });
  for (const [name, values] of byField) if (values) open.set(name, values);
  return open;
}
