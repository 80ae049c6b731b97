/**
 * Where the Restate server is: the admin API (workers register there, `xagent tasks` lists from
 * it) and the ingress (submit, wait, approve). A flag wins over the environment, which wins over
 * the defaults of a server started with `npx restate-server` on this machine.
 */
export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:9070';
export const DEFAULT_INGRESS_URL = 'http://127.0.0.1:8080';

/** @example adminUrl(undefined, { RESTATE_ADMIN_URL: 'http://restate:9070/' }) // 'http://restate:9070' */
export function adminUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return trimSlash(flag ?? env.RESTATE_ADMIN_URL ?? DEFAULT_ADMIN_URL);
}

/** @example ingressUrl('http://10.0.0.5:8080', process.env) // 'http://10.0.0.5:8080' */
export function ingressUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return trimSlash(flag ?? env.RESTATE_INGRESS_URL ?? DEFAULT_INGRESS_URL);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
