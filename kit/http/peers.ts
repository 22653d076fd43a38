/** Addressing and probing the other processes of a distributed deployment. */

/** `http://identity:4001` or `http://identity:4001/` + `graphql` or `/graphql` → `http://identity:4001/graphql`. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Whether a GET of `url` answers 2xx within 2 s (a peer's /healthz, for our own /readyz). */
export async function reachable(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
