/**
 * After a revocation through one replica, asks another (`request`) until it stops answering 200, for
 * at most 2 s. Revocation is LISTEN-based (docs/principals.md#revocation-reaches-every-process-at-once):
 * the replica that revoked answers once its own listener has the NOTIFY; another replica's listener
 * reads the same NOTIFY on its own connection, which nothing orders against that replica's next request.
 * 2 s is well under the principal cache's 5 s, so a replica that kept serving its cached principal fails
 * here. Answers the first refusal, the statuses seen and how long after `revokedAt` it came.
 */
export async function untilRefused<R extends { status: number }>(
  request: () => Promise<R>,
  revokedAt: number,
): Promise<{ refusal: R; statuses: number[]; ms: number }> {
  const statuses: number[] = [];
  for (;;) {
    const answer = await request();
    statuses.push(answer.status);
    if (answer.status !== 200) return { refusal: answer, statuses, ms: Date.now() - revokedAt };
    if (Date.now() - revokedAt > 2000) throw new Error(`the other replica still served the revoked token: ${statuses}`);
    await new Promise(r => setTimeout(r, 20));
  }
}
