/**
 * URL parsers drop tabs and newlines. Decoded by the router, an encoded one can leave a path
 * such as `//`, which no URL parser accepts: `/%09/` made React Router throw, on the server
 * (a 500) and in the browser (a blank page). Escaped once more in the path, it is plain text
 * to the router and matches no route, so the visitor gets the 404 page. The server renders
 * and the browser hydrates the same escaped target.
 */
export function routerSafe(target: string): string {
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  if (!/%0[9ad]/i.test(path)) return target;
  return path.replace(/%(0[9ad])/gi, '%25$1') + (query === -1 ? '' : target.slice(query));
}
