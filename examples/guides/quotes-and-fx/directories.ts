import type { Crossborder } from 'crossborder-sdk';

/** The institutions a payout in `currency` to `country` can reach, as a picker shows them: the value to send and its label. */
export async function bankChoices(cb: Crossborder, country: string, currency: string): Promise<{ value: string; label: string }[]> {
  const { data = [] } = await cb.discoveries.list({ country, currency });
  return data.map((d) => ({ value: d.bankName, label: d.displayName }));
}

/** The directory's own spelling of a VASP's name (`kraken` → `Kraken`), walking every page; undefined when it is not listed. */
export async function vaspNamed(cb: Crossborder, name: string): Promise<string | undefined> {
  for await (const vasp of cb.vasps.list({ limit: 100 })) {
    if (vasp.vaspName.toLowerCase() === name.trim().toLowerCase()) return vasp.vaspName;
  }
  return undefined;
}
