'use strict';
// A deterministic corpus of realistic, all-different HTTP/1.1 messages, for
// benchmarks that should look like real traffic rather than one repeated
// request: browsers (Chrome, Edge, Firefox, Safari; navigations, subresources,
// fetch/XHR, CORS preflights), API clients (undici / node fetch, axios, curl,
// python-requests, Go, okhttp), crawlers, some behind a reverse proxy that
// adds X-Forwarded-* and tracing headers. Header order and casing are those
// the clients send over HTTP/1.1 (Title-Case for browsers, lowercase for
// undici). Paths, ids, cookies, ETags, dates and tokens vary, so no two
// messages are the same bytes. Seeded PRNG only: the same seed gives the same
// bytes in every process and on every Node line (test/inputs/generators.test.js
// hashes them). prng and cutAt are the tests' random source and cutter too
// (test/support/generate.js).

// mulberry32: small, fast, deterministic. test/support/generate.js draws from it too.
function prng(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Helpers over one random source.
function tools(random) {
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)); // inclusive
  const pick = (list) => list[Math.floor(random() * list.length)];
  const chance = (p) => random() < p;
  // weighted: [[weight, value], ...]
  const weighted = (list) => {
    let total = 0;
    for (const [w] of list) total += w;
    let r = random() * total;
    for (const [w, v] of list) {
      if ((r -= w) < 0) return v;
    }
    return list[list.length - 1][1];
  };
  const chars = (alphabet, n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
    return s;
  };
  const HEX = '0123456789abcdef';
  const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const B64URL = ALNUM + '-_';
  const hex = (n) => chars(HEX, n);
  const alnum = (n) => chars(ALNUM, n);
  const b64url = (n) => chars(B64URL, n);
  const digits = (n) => chars('0123456789', n);
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick('89ab')}${hex(3)}-${hex(12)}`;
  // Dates between 2024-01-01 and 2025-12-31, HTTP-date format.
  const httpDate = () => new Date(Date.UTC(2024, 0, 1) + int(0, 730 * 86400) * 1000).toUTCString();
  const unix = () => 1704067200 + int(0, 730 * 86400);
  return { random, int, pick, chance, weighted, hex, alnum, b64url, digits, uuid, httpDate, unix };
}

const WORDS = ['red', 'shoes', 'laptop', 'coffee', 'garden', 'chair', 'winter', 'jacket', 'phone',
  'case', 'running', 'table', 'lamp', 'organic', 'tea', 'blue', 'desk', 'camera', 'lens', 'book',
  'kids', 'bike', 'helmet', 'wool', 'socks', 'kitchen', 'knife', 'travel', 'bag', 'watch'];
const SITE_HOSTS = ['www.example.com', 'shop.example.com', 'app.example.net', 'news.example.org',
  'localhost:3000', 'example.com'];
const API_HOSTS = ['api.example.com', 'api.example.net', 'internal-api.svc.cluster.local:8080',
  'localhost:8080', 'payments.example.com'];
const LANGS = ['en-US,en;q=0.9', 'en-GB,en;q=0.9', 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7',
  'fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', 'es-ES,es;q=0.9', 'ja,en-US;q=0.9,en;q=0.8',
  'pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7', 'en-US,en;q=0.5', 'nl-NL,nl;q=0.9,en;q=0.8'];

// One browser identity: user agent, client hints and language.
function browser(t) {
  const kind = t.weighted([[45, 'chrome'], [10, 'edge'], [20, 'firefox'], [15, 'safari'], [10, 'chrome-android']]);
  const lang = t.pick(LANGS);
  if (kind === 'firefox') {
    const v = t.int(115, 133);
    const os = t.pick(['Windows NT 10.0; Win64; x64', 'X11; Linux x86_64', 'Macintosh; Intel Mac OS X 10.15',
      'X11; Ubuntu; Linux x86_64']);
    return { kind, lang, ua: `Mozilla/5.0 (${os}; rv:${v}.0) Gecko/20100101 Firefox/${v}.0` };
  }
  if (kind === 'safari') {
    const v = `${t.int(16, 18)}.${t.int(0, 6)}`;
    const ua = t.chance(0.5) ?
      `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v} Safari/605.1.15` :
      `Mozilla/5.0 (iPhone; CPU iPhone OS ${v.replace('.', '_')} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v} Mobile/15E148 Safari/604.1`;
    return { kind, lang, ua };
  }
  const v = t.int(118, 131);
  const brand = kind === 'edge' ? 'Microsoft Edge' : 'Google Chrome';
  const notA = t.pick(['"Not-A.Brand";v="99"', '"Not/A)Brand";v="8"', '"Not_A Brand";v="24"']);
  const secChUa = `"Chromium";v="${v}", "${brand}";v="${v}", ${notA}`;
  if (kind === 'chrome-android') {
    return { kind, lang, secChUa, mobile: '?1', platform: '"Android"',
      ua: `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Mobile Safari/537.36` };
  }
  const [os, platform] = t.pick([['Windows NT 10.0; Win64; x64', '"Windows"'],
    ['Macintosh; Intel Mac OS X 10_15_7', '"macOS"'], ['X11; Linux x86_64', '"Linux"']]);
  let ua = `Mozilla/5.0 (${os}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`;
  if (kind === 'edge') ua += ` Edg/${v}.0.${t.int(1000, 2900)}.${t.int(10, 99)}`;
  return { kind, lang, secChUa, mobile: '?0', platform, ua };
}

function cookies(t) {
  const parts = [];
  if (t.chance(0.7)) parts.push(`_ga=GA1.1.${t.digits(10)}.${t.unix()}`);
  if (t.chance(0.5)) parts.push(`_ga_${t.alnum(10).toUpperCase()}=GS1.1.${t.unix()}.${t.int(1, 40)}.1.${t.unix()}.0.0.0`);
  if (t.chance(0.3)) parts.push(`_fbp=fb.1.${t.unix()}${t.digits(3)}.${t.digits(10)}`);
  if (t.chance(0.2)) parts.push(`_gid=GA1.2.${t.digits(9)}.${t.unix()}`);
  if (t.chance(0.85)) parts.push(`${t.pick(['sessionid', 'connect.sid', 'session', 'PHPSESSID', 'sid'])}=${t.chance(0.5) ? t.hex(32) : `s%3A${t.b64url(32)}.${t.b64url(43)}`}`);
  if (t.chance(0.4)) parts.push(`csrftoken=${t.alnum(32)}`);
  if (t.chance(0.3)) parts.push(`theme=${t.pick(['dark', 'light'])}`);
  if (t.chance(0.2)) parts.push(`cart=${t.int(0, 12)}`);
  if (t.chance(0.15)) parts.push(`cookie_consent=${t.pick(['all', 'necessary', 'analytics%2Cads'])}`);
  if (parts.length === 0) parts.push(`sid=${t.hex(24)}`);
  return parts.join('; ');
}

function etag(t) {
  return t.chance(0.5) ? `W/"${t.int(1, 0xfffff).toString(16)}-${t.b64url(27)}"` : `"${t.hex(t.pick([16, 32, 40]))}"`;
}

function bearer(t) {
  return `Bearer eyJhbGciOiJ${t.pick(['IUzI1NiIsInR5cCI6IkpXVCJ9', 'SUzI1NiIsInR5cCI6IkpXVCJ9', 'IUzI1NiJ9'])}.${t.b64url(t.int(60, 220))}.${t.b64url(43)}`;
}

function pagePath(t) {
  return t.weighted([
    [6, () => '/'],
    [20, () => `/products/${t.int(1000, 999999)}${t.chance(0.3) ? `?ref=${t.pick(['home', 'search', 'cat', 'email'])}&utm_source=${t.pick(['google', 'newsletter', 'facebook'])}` : ''}`],
    [12, () => `/search?q=${t.pick(WORDS)}+${t.pick(WORDS)}&page=${t.int(1, 20)}${t.chance(0.3) ? `&sort=${t.pick(['price_asc', 'price_desc', 'newest'])}` : ''}`],
    [10, () => `/blog/${t.int(2015, 2025)}/${String(t.int(1, 12)).padStart(2, '0')}/${t.pick(WORDS)}-${t.pick(WORDS)}-${t.pick(WORDS)}`],
    [8, () => `/account/orders/${t.int(100000, 9999999)}`],
    [8, () => `/category/${t.pick(WORDS)}?page=${t.int(1, 50)}&per_page=${t.pick([24, 48, 96])}`],
    [4, () => `/users/${t.alnum(t.int(4, 12)).toLowerCase()}/settings`],
  ])();
}

function assetPath(t) {
  return t.weighted([
    [8, () => ['/static/js/main.' + t.hex(8) + '.js', 'script', '*/*']],
    [5, () => ['/static/css/app.' + t.hex(8) + '.css', 'style', 'text/css,*/*;q=0.1']],
    [12, () => [`/images/products/${t.int(1000, 999999)}-${t.pick([320, 640, 1024])}x${t.pick([240, 480, 768])}.${t.pick(['webp', 'jpg', 'avif', 'png'])}`, 'image',
      'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8']],
    [2, () => ['/favicon.ico?v=' + t.int(1, 99), 'image', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8']],
    [3, () => [`/fonts/${t.pick(['inter', 'roboto', 'source-sans'])}-${t.pick(['400', '600', '700'])}.${t.hex(6)}.woff2`, 'font', '*/*']],
  ])();
}

function apiPath(t) {
  return t.weighted([
    [14, () => `/api/v1/users/${t.int(1, 9999999)}`],
    [10, () => `/api/v1/orders?status=${t.pick(['open', 'paid', 'shipped', 'cancelled'])}&limit=${t.pick([10, 20, 50, 100])}&offset=${t.int(0, 40) * 10}`],
    [10, () => `/api/v2/items/${t.uuid()}`],
    [6, () => `/api/v1/products/${t.int(1000, 999999)}/reviews?page=${t.int(1, 30)}`],
    [5, () => `/graphql${t.chance(0.3) ? `?op=${t.pick(['GetCart', 'ProductPage', 'Viewer', 'SearchQuery'])}` : ''}`],
    [5, () => `/v1/events?since=${t.unix()}&cursor=${t.b64url(t.int(8, 24))}`],
    [3, () => `/api/v1/sessions/${t.hex(24)}`],
    [2, () => `/health?probe=${t.int(1, 999999)}`],
  ])();
}

function jsonBody(t, min, max) {
  const target = t.int(min, max);
  const fields = [`"id":${t.int(1, 99999999)}`, `"requestId":"${t.uuid()}"`];
  const keys = new Set();
  let s = '';
  for (let tries = 0; tries < 1000; tries++) {
    const f = t.weighted([
      [3, () => `"${t.pick(WORDS)}":"${t.pick(WORDS)} ${t.pick(WORDS)}"`],
      [3, () => `"${t.pick(['qty', 'count', 'price', 'total', 'page'])}":${t.int(0, 100000)}`],
      [1, () => `"${t.pick(['active', 'gift', 'express'])}":${t.chance(0.5)}`],
      [1, () => `"email":"${t.alnum(t.int(4, 10)).toLowerCase()}@example.${t.pick(['com', 'org', 'net'])}"`],
      [1, () => `"tags":["${t.pick(WORDS)}","${t.pick(WORDS)}"]`],
      [1, () => `"createdAt":"${new Date(t.unix() * 1000).toISOString()}"`],
    ])();
    const key = f.slice(0, f.indexOf(':'));
    if (keys.has(key)) continue;
    keys.add(key);
    fields.push(f);
    s = `{${fields.join(',')}}`;
    if (s.length >= target) return s;
  }
  // Past the distinct keys: a list of line items up to the target size.
  const items = [];
  while (s.length < target) {
    items.push(`{"sku":"${t.alnum(10).toUpperCase()}","qty":${t.int(1, 20)},"price":${t.int(100, 99999)}}`);
    s = `{${fields.join(',')},"items":[${items.join(',')}]}`;
  }
  return s;
}

function formBody(t) {
  return `csrfmiddlewaretoken=${t.alnum(64)}&${t.pick(['email', 'q', 'comment'])}=${t.pick(WORDS)}%40${t.pick(WORDS)}.com&qty=${t.int(1, 9)}`;
}

// Reverse-proxy headers (nginx / a load balancer in front of node), appended.
function proxyHeaders(t, h, lower) {
  const ip = `${t.int(1, 223)}.${t.int(0, 255)}.${t.int(0, 255)}.${t.int(1, 254)}`;
  const n = (s) => (lower ? s.toLowerCase() : s);
  h.push([n('X-Forwarded-For'), t.chance(0.3) ? `${ip}, 10.${t.int(0, 255)}.${t.int(0, 255)}.${t.int(1, 254)}` : ip]);
  h.push([n('X-Forwarded-Proto'), 'https']);
  h.push([n('X-Forwarded-Host'), h[0][1]]);
  h.push([n('X-Real-IP'), ip]);
  h.push([n('X-Request-Id'), t.uuid()]);
  if (t.chance(0.7)) h.push(['traceparent', `00-${t.hex(32)}-${t.hex(16)}-0${t.int(0, 1)}`]);
  if (t.chance(0.3)) h.push([n('X-Amzn-Trace-Id'), `Root=1-${t.unix().toString(16)}-${t.hex(24)}`]);
}

// The path and method of a browser request of `kind` (navigate, asset, fetch,
// form); an asset's destination and Accept too.
function browserTarget(t, kind) {
  if (kind === 'navigate') return { path: pagePath(t), method: 'GET' };
  if (kind === 'asset') {
    const [path, dest, accept] = assetPath(t);
    return { path, method: 'GET', dest, accept };
  }
  if (kind === 'fetch') return { path: apiPath(t), method: t.weighted([[6, 'GET'], [2, 'POST'], [1, 'PUT'], [1, 'PATCH'], [1, 'DELETE']]) };
  return { path: pagePath(t), method: 'POST' };
}

// A browser request: navigation, subresource, fetch/XHR, form post, preflight.
function browserRequest(t) {
  const b = browser(t);
  const chromium = Boolean(b.secChUa);
  const host = t.pick(SITE_HOSTS);
  // Client hints and Sec-Fetch-* come only from secure contexts: a page over
  // plain http (a dev server, an intranet site) gets neither.
  const secure = !host.startsWith('localhost') && t.chance(0.55);
  const origin = secure ? `https://${host}` : `http://${host}`;
  const referer = () => `${origin}${pagePath(t)}`;
  const kind = t.weighted([[30, 'navigate'], [35, 'asset'], [22, 'fetch'], [8, 'form'], [5, 'preflight']]);
  const h = [['Host', host]];
  let method = 'GET';
  let path;
  let body = null;
  let contentType = null;
  const secFetch = (site, mode, dest, user) => {
    if (!secure || (b.kind === 'safari' && t.chance(0.5))) return; // older Safari sends none
    h.push(['Sec-Fetch-Site', site], ['Sec-Fetch-Mode', mode]);
    if (user) h.push(['Sec-Fetch-User', '?1']);
    h.push(['Sec-Fetch-Dest', dest]);
  };
  if (kind === 'preflight') {
    method = 'OPTIONS';
    path = apiPath(t);
    h.push(['Connection', 'keep-alive'], ['Accept', '*/*'],
           ['Access-Control-Request-Method', t.pick(['POST', 'PUT', 'PATCH', 'DELETE'])],
           ['Access-Control-Request-Headers', t.pick(['authorization,content-type', 'content-type', 'authorization,content-type,x-csrf-token'])],
           ['Origin', `https://${t.pick(SITE_HOSTS).replace(/:\d+$/, '')}`], ['User-Agent', b.ua]);
    secFetch('same-site', 'cors', 'empty');
    h.push(['Referer', referer()], ['Accept-Encoding', 'gzip, deflate, br, zstd'], ['Accept-Language', b.lang]);
    return { method, path, headers: h, body, chunked: false };
  }
  if (b.kind === 'firefox') {
    // Firefox: Host, User-Agent, Accept, Accept-Language, Accept-Encoding, ..., Connection, Referer, Cookie, Sec-Fetch-*
    ({ path, method } = browserTarget(t, kind));
    const accept = kind === 'navigate' ? 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' :
      kind === 'fetch' ? 'application/json, text/plain, */*' : kind === 'form' ? 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' : '*/*';
    h.push(['User-Agent', b.ua], ['Accept', accept], ['Accept-Language', b.lang],
           ['Accept-Encoding', 'gzip, deflate, br, zstd']);
    if (kind === 'fetch' && method !== 'GET' && method !== 'DELETE') {
      contentType = 'application/json';
      body = jsonBody(t, 40, 900);
      h.push(['Content-Type', contentType], ['Content-Length', String(body.length)]);
      h.push(['Origin', origin]);
    } else if (kind === 'form') {
      body = formBody(t);
      h.push(['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', String(body.length)], ['Origin', origin]);
    }
    if (kind === 'fetch' && t.chance(0.4)) h.push(['X-CSRF-Token', t.b64url(43)]);
    h.push(['Connection', 'keep-alive']);
    if (kind !== 'navigate' || t.chance(0.7)) h.push(['Referer', referer()]);
    if (t.chance(0.85)) h.push(['Cookie', cookies(t)]);
    if (kind === 'navigate' && t.chance(0.6)) h.push(['Upgrade-Insecure-Requests', '1']);
    const dest = kind === 'navigate' || kind === 'form' ? 'document' : kind === 'fetch' ? 'empty' : t.pick(['image', 'script', 'style']);
    secFetch(kind === 'navigate' ? t.pick(['none', 'same-origin', 'cross-site']) : 'same-origin',
             kind === 'navigate' || kind === 'form' ? 'navigate' : kind === 'fetch' ? 'cors' : 'no-cors', dest, kind === 'navigate');
    if (kind === 'asset' && t.chance(0.35)) h.push(['If-Modified-Since', t.httpDate()]);
    if ((kind === 'asset' || kind === 'navigate') && t.chance(0.3)) h.push(['If-None-Match', etag(t)]);
    if (t.chance(0.2)) h.push(['Priority', t.pick(['u=0, i', 'u=1', 'u=4', 'u=5, i'])]);
    if (kind === 'navigate' && t.chance(0.15)) h.push(['Cache-Control', 'max-age=0']);
  } else {
    // Chromium and Safari: Host, Connection, (Cache-Control), sec-ch-ua*, Upgrade-Insecure-Requests,
    // User-Agent, Accept, Sec-Fetch-*, Referer, Accept-Encoding, Accept-Language, Cookie, If-*
    const target = browserTarget(t, kind);
    ({ path, method } = target);
    let accept = kind === 'asset' ? target.accept : kind === 'fetch' ? t.pick(['application/json', '*/*', 'application/json, text/plain, */*']) :
      `text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8${kind === 'navigate' ? ',application/signed-exchange;v=b3;q=0.7' : ''}`;
    const dest = target.dest || (kind === 'fetch' ? 'empty' : 'document');
    const mode = kind === 'asset' ? (dest === 'font' ? 'cors' : 'no-cors') : kind === 'fetch' ? 'cors' : 'navigate';
    if (b.kind === 'safari') accept = accept.replace(/,image\/avif.*$/, ',*/*;q=0.8');
    h.push(['Connection', 'keep-alive']);
    if (kind === 'navigate' && t.chance(0.2)) h.push(['Cache-Control', 'max-age=0']);
    if (method !== 'GET' && method !== 'DELETE') {
      body = kind === 'form' ? formBody(t) : jsonBody(t, 40, 1200);
      h.push(['Content-Length', String(body.length)]);
    }
    if (chromium && secure) {
      h.push(['sec-ch-ua', b.secChUa], ['sec-ch-ua-mobile', b.mobile], ['sec-ch-ua-platform', b.platform]);
    }
    if (kind === 'navigate' || kind === 'form') {
      if (kind === 'form') h.push(['Origin', origin], ['Content-Type', 'application/x-www-form-urlencoded']);
      h.push(['Upgrade-Insecure-Requests', '1']);
    }
    h.push(['User-Agent', b.ua]);
    if (kind === 'fetch' && body) h.push(['Content-Type', 'application/json']);
    if (kind === 'fetch' && t.chance(0.3)) h.push(['Authorization', bearer(t)]);
    h.push(['Accept', accept]);
    if (kind === 'fetch' && body) h.push(['Origin', origin]);
    secFetch(kind === 'navigate' ? t.pick(['none', 'same-origin', 'cross-site']) : 'same-origin', mode, dest, kind === 'navigate');
    if (kind !== 'navigate' || t.chance(0.6)) h.push(['Referer', referer()]);
    h.push(['Accept-Encoding', b.kind === 'safari' ? 'gzip, deflate, br' : 'gzip, deflate, br, zstd']);
    h.push(['Accept-Language', b.lang]);
    if (t.chance(0.85)) h.push(['Cookie', cookies(t)]);
    if ((kind === 'asset' || kind === 'navigate') && t.chance(0.3)) h.push(['If-None-Match', etag(t)]);
    if (kind === 'asset' && t.chance(0.35)) h.push(['If-Modified-Since', t.httpDate()]);
  }
  return { method, path, headers: h, body, chunked: false };
}

// An API client request.
function apiRequest(t) {
  const client = t.weighted([[30, 'undici'], [15, 'axios'], [15, 'curl'], [15, 'python'], [12, 'go'], [8, 'okhttp'], [5, 'bot']]);
  const host = client === 'bot' ? t.pick(SITE_HOSTS) : t.pick(API_HOSTS);
  const method = client === 'bot' ? t.weighted([[9, 'GET'], [1, 'HEAD']]) :
    t.weighted([[55, 'GET'], [18, 'POST'], [6, 'PUT'], [6, 'PATCH'], [7, 'DELETE'], [5, 'HEAD'], [3, 'OPTIONS']]);
  const path = client === 'bot' ? (t.chance(0.8) ? pagePath(t) : t.pick(['/robots.txt', '/sitemap.xml', `/sitemap-${t.int(1, 40)}.xml`])) : apiPath(t);
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const body = hasBody ? jsonBody(t, 30, t.chance(0.1) ? 4000 : 600) : null;
  const auth = client !== 'bot' && t.chance(0.75);
  const h = [];
  let chunked = false;
  if (client === 'undici') {
    // node's fetch (undici): lowercase names, in this order.
    chunked = hasBody && t.chance(0.3); // a stream body: no length known
    h.push(['host', host], ['connection', 'keep-alive']);
    if (hasBody) h.push(['content-type', 'application/json']);
    if (auth) h.push(['authorization', bearer(t)]);
    if (t.chance(0.4)) h.push(['x-request-id', t.uuid()]);
    if (t.chance(0.3)) h.push(['traceparent', `00-${t.hex(32)}-${t.hex(16)}-01`]);
    h.push(['accept', t.chance(0.5) ? '*/*' : 'application/json'], ['accept-language', '*'],
           ['sec-fetch-mode', 'cors'], ['user-agent', t.chance(0.8) ? 'node' : `undici/${t.int(5, 7)}.${t.int(0, 11)}.${t.int(0, 3)}`],
           ['accept-encoding', 'gzip, deflate']);
    if (hasBody) h.push(chunked ? ['transfer-encoding', 'chunked'] : ['content-length', String(body.length)]);
  } else if (client === 'axios') {
    h.push(['Accept', 'application/json, text/plain, */*']);
    if (hasBody) h.push(['Content-Type', 'application/json']);
    if (auth) h.push(['Authorization', bearer(t)]);
    if (t.chance(0.5)) h.push(['X-Request-Id', t.uuid()]);
    h.push(['User-Agent', `axios/1.${t.int(4, 7)}.${t.int(0, 9)}`]);
    if (hasBody) h.push(['Content-Length', String(body.length)]);
    h.push(['Accept-Encoding', 'gzip, compress, deflate, br'], ['Host', host], ['Connection', 'keep-alive']);
  } else if (client === 'curl') {
    h.push(['Host', host], ['User-Agent', `curl/${t.pick(['7.81.0', '7.88.1', '8.5.0', '8.7.1', '8.11.1'])}`], ['Accept', '*/*']);
    if (auth) h.push(['Authorization', bearer(t)]);
    if (hasBody) h.push(['Content-Type', 'application/json'], ['Content-Length', String(body.length)]);
  } else if (client === 'python') {
    h.push(['Host', host], ['User-Agent', `python-requests/2.${t.int(25, 32)}.${t.int(0, 3)}`],
           ['Accept-Encoding', 'gzip, deflate'], ['Accept', '*/*'], ['Connection', 'keep-alive']);
    if (auth) h.push(['Authorization', bearer(t)]);
    if (hasBody) h.push(['Content-Length', String(body.length)], ['Content-Type', 'application/json']);
  } else if (client === 'go') {
    chunked = hasBody && t.chance(0.2);
    h.push(['Host', host], ['User-Agent', 'Go-http-client/1.1']);
    if (hasBody) h.push(chunked ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(body.length)]);
    if (auth) h.push(['Authorization', bearer(t)]);
    if (hasBody) h.push(['Content-Type', 'application/json']);
    if (t.chance(0.5)) h.push(['X-Request-Id', t.uuid()]);
    h.push(['Accept-Encoding', 'gzip']);
  } else if (client === 'okhttp') {
    if (auth) h.push(['Authorization', bearer(t)]);
    if (hasBody) h.push(['Content-Type', 'application/json; charset=utf-8'], ['Content-Length', String(body.length)]);
    h.push(['Host', host], ['Connection', 'Keep-Alive'], ['Accept-Encoding', 'gzip'],
           ['User-Agent', `okhttp/${t.pick(['3.14.9', '4.9.3', '4.11.0', '4.12.0'])}`]);
  } else {
    const ua = t.pick(['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)']);
    h.push(['Host', host], ['Connection', 'keep-alive'], ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
           ['From', 'googlebot(at)googlebot.com'], ['User-Agent', ua], ['Accept-Encoding', 'gzip, deflate, br']);
    if (t.chance(0.4)) h.push(['If-Modified-Since', t.httpDate()]);
  }
  if (method === 'GET' && client !== 'bot' && t.chance(0.15)) h.push([client === 'undici' ? 'if-none-match' : 'If-None-Match', etag(t)]);
  return { method, path, headers: h, body, chunked };
}

function oneRequest(t) {
  const msg = t.chance(0.58) ? browserRequest(t) : apiRequest(t);
  // Some traffic arrives through a reverse proxy that adds its headers.
  if (t.chance(0.18)) proxyHeaders(t, msg.headers, msg.headers[0][0] === 'host');
  if (msg.body !== null) msg.body = Buffer.from(msg.body, 'latin1');
  return msg;
}

const STATUS = [[62, 200], [5, 201], [5, 204], [2, 206], [3, 301], [4, 302], [9, 304], [2, 400], [2, 401],
  [1, 403], [3, 404], [1, 429], [1, 500], [0.5, 502], [0.5, 503]];
const REASONS = { 200: 'OK', 201: 'Created', 204: 'No Content', 206: 'Partial Content', 301: 'Moved Permanently',
  302: 'Found', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
  429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

function htmlBody(t, min, max) {
  const target = t.int(min, max);
  let s = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${t.pick(WORDS)} ${t.pick(WORDS)}</title></head><body>`;
  while (s.length < target) s += `<p class="${t.pick(WORDS)}">${t.pick(WORDS)} ${t.pick(WORDS)} ${t.pick(WORDS)} ${t.int(0, 99999)}</p>`;
  return s + '</body></html>';
}

function oneResponse(t) {
  const statusCode = t.weighted(STATUS);
  const statusMessage = REASONS[statusCode];
  const server = t.weighted([[40, 'node'], [30, 'nginx'], [20, 'cloudflare'], [10, 'express']]);
  const lower = server === 'node' && t.chance(0.3); // a node app that sets lowercase names
  const n = (s) => (lower ? s.toLowerCase() : s);
  const h = [];
  const noBody = statusCode === 204 || statusCode === 304;
  let body = null;
  let type = null;
  if (!noBody) {
    if (statusCode === 301 || statusCode === 302) {
      type = 'text/html';
      body = t.chance(0.5) ? `<html><head><title>${statusCode} ${statusMessage}</title></head><body><center><h1>${statusCode} ${statusMessage}</h1></center></body></html>` : '';
    } else {
      const k = t.weighted([[45, 'json'], [25, 'html'], [10, 'js'], [10, 'css'], [10, 'text']]);
      if (k === 'json') { type = 'application/json; charset=utf-8'; body = jsonBody(t, 20, t.chance(0.1) ? 6000 : 1500); }
      else if (k === 'html') { type = 'text/html; charset=utf-8'; body = htmlBody(t, 200, t.chance(0.15) ? 8000 : 2500); }
      else if (k === 'js') { type = 'application/javascript; charset=utf-8'; body = `!function(){var a=${t.int(0, 1e6)};${'x=a+1;'.repeat(t.int(10, 300))}}();`; }
      else if (k === 'css') { type = 'text/css; charset=utf-8'; body = `.${t.pick(WORDS)}{color:#${t.hex(6)}}`.repeat(t.int(5, 120)); }
      else { type = 'text/plain; charset=utf-8'; body = `${statusMessage} ${t.uuid()}`; }
    }
  }
  const chunked = body !== null && body.length > 0 && statusCode !== 206 && t.chance(server === 'node' || server === 'express' ? 0.3 : 0.15);
  if (server === 'nginx' || server === 'cloudflare') {
    h.push(['Server', server === 'nginx' ? t.pick(['nginx', 'nginx/1.24.0', 'nginx/1.26.2']) : 'cloudflare'], ['Date', t.httpDate()]);
    if (type) h.push(['Content-Type', type]);
    if (body !== null) h.push(chunked ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(body.length)]);
    h.push(['Connection', 'keep-alive']);
  } else {
    if (server === 'express') h.push(['X-Powered-By', 'Express']);
    if (t.chance(0.3)) h.push([n('Access-Control-Allow-Origin'), t.chance(0.5) ? '*' : `https://${t.pick(SITE_HOSTS)}`]);
    if (type) h.push([n('Content-Type'), type]);
    if (body !== null && !chunked) h.push([n('Content-Length'), String(body.length)]);
  }
  if (statusCode === 301 || statusCode === 302) h.push([n('Location'), `https://${t.pick(SITE_HOSTS)}${pagePath(t)}`]);
  if (statusCode === 200 || statusCode === 304 || statusCode === 206) {
    if (t.chance(0.6)) h.push([n('ETag'), etag(t)]);
    if (t.chance(0.4)) h.push([n('Last-Modified'), t.httpDate()]);
    h.push([n('Cache-Control'), t.pick(['no-cache', 'private, no-store', 'public, max-age=31536000, immutable',
      `public, max-age=${t.pick([60, 300, 600, 3600, 86400])}`, 'no-store, max-age=0', `s-maxage=${t.int(1, 600)}, stale-while-revalidate=59`])]);
  }
  if (statusCode === 206) h.push([n('Accept-Ranges'), 'bytes'], [n('Content-Range'), `bytes 0-${body.length - 1}/${body.length + t.int(1, 100000)}`]);
  if (t.chance(0.4)) h.push([n('Vary'), t.pick(['Accept-Encoding', 'Origin', 'Origin, Accept-Encoding', 'Accept, Accept-Encoding, Cookie'])]);
  if (t.chance(0.25)) {
    const sc = t.int(1, t.chance(0.2) ? 4 : 1);
    for (let i = 0; i < sc; i++) {
      h.push([n('Set-Cookie'), t.pick([
        () => `sessionid=${t.hex(32)}; Path=/; HttpOnly; Secure; SameSite=Lax`,
        () => `connect.sid=s%3A${t.b64url(32)}.${t.b64url(43)}; Path=/; Expires=${t.httpDate()}; HttpOnly`,
        () => `csrftoken=${t.alnum(32)}; expires=${t.httpDate()}; Max-Age=31449600; Path=/; SameSite=Lax`,
        () => `__cf_bm=${t.b64url(43)}-${t.unix()}-1.0.1.1-${t.b64url(60)}; path=/; expires=${t.httpDate()}; domain=.example.com; HttpOnly; Secure; SameSite=None`,
      ])()]);
    }
  }
  if (t.chance(0.5)) h.push([n('X-Request-Id'), t.uuid()]);
  if (server === 'cloudflare') h.push(['CF-RAY', `${t.hex(16)}-${t.pick(['FRA', 'AMS', 'LHR', 'IAD', 'SJC', 'NRT'])}`], ['CF-Cache-Status', t.pick(['HIT', 'MISS', 'DYNAMIC', 'EXPIRED', 'REVALIDATED'])]);
  if (server === 'nginx' || server === 'cloudflare') {
    if (t.chance(0.5)) h.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
    if (t.chance(0.4)) h.push(['X-Content-Type-Options', 'nosniff']);
    if (t.chance(0.2)) h.push(['X-Frame-Options', 'SAMEORIGIN']);
  } else {
    if (statusCode === 429 || t.chance(0.1)) h.push([n('X-RateLimit-Limit'), '1000'], [n('X-RateLimit-Remaining'), String(t.int(0, 999))], [n('X-RateLimit-Reset'), String(t.unix())]);
    h.push([n('Date'), t.httpDate()], [n('Connection'), 'keep-alive'], [n('Keep-Alive'), `timeout=${t.pick([5, 5, 5, 72])}`]);
    if (chunked) h.push([n('Transfer-Encoding'), 'chunked']);
  }
  return { statusCode, statusMessage, headers: h, body: body === null ? null : Buffer.from(body, 'latin1'), chunked };
}

// Builds `count` messages that all differ (a duplicate is drawn again).
function build(one, keyOf, count, seed, salt) {
  const t = tools(prng((seed * 0x9e3779b1 + salt) >>> 0));
  const seen = new Set();
  const out = [];
  while (out.length < count) {
    const msg = one(t);
    const key = keyOf(msg);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(msg);
  }
  return out;
}

// [{ method, path, headers: [[name, value]], body, chunked }], all different.
function requestCorpus({ count = 1000, seed = 1 } = {}) {
  return build(oneRequest, (m) => serializeRequest(m).toString('latin1'), count, seed, 0x7265);
}

// [{ statusCode, statusMessage, headers, body, chunked }], all different.
function responseCorpus({ count = 1000, seed = 1 } = {}) {
  return build(oneResponse, (m) => serializeResponse(m).toString('latin1'), count, seed, 0x7370);
}

// Chunked body in 1-3 chunks; the cut points follow from the body's bytes, so
// the same message always serializes to the same bytes.
function chunkedBody(body) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < body.length; i += 7) hash = Math.imul(hash ^ body[i], 16777619);
  const t = tools(prng(hash ^ body.length));
  const count = Math.min(body.length, t.int(1, 3));
  const cuts = [0];
  for (let i = 1; i < count; i++) cuts.push(Math.floor(body.length * i / count) + t.int(-3, 3));
  cuts.push(body.length);
  const parts = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const piece = body.subarray(cuts[i], cuts[i + 1]);
    if (piece.length === 0) continue;
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`, 'latin1'), piece, Buffer.from('\r\n', 'latin1'));
  }
  parts.push(Buffer.from('0\r\n\r\n', 'latin1'));
  return Buffer.concat(parts);
}

function serialize(startLine, msg) {
  let head = `${startLine}\r\n`;
  for (const [name, value] of msg.headers) head += `${name}: ${value}\r\n`;
  head += '\r\n';
  const headBuf = Buffer.from(head, 'latin1');
  if (msg.body === null || msg.body === undefined) return headBuf;
  return Buffer.concat([headBuf, msg.chunked ? chunkedBody(msg.body) : msg.body]);
}

function serializeRequest(msg) {
  return serialize(`${msg.method} ${msg.path} HTTP/1.1`, msg);
}

function serializeResponse(msg) {
  return serialize(`HTTP/1.1 ${msg.statusCode} ${msg.statusMessage}`, msg);
}

// The buffer cut at `cuts` (ascending offsets; a repeated one gives an empty
// piece): cuts.length + 1 pieces. The one cutter of tests and benchmarks.
function cutAt(buffer, cuts) {
  const out = [];
  let at = 0;
  for (const cut of cuts) {
    out.push(buffer.subarray(at, cut));
    at = cut;
  }
  out.push(buffer.subarray(at));
  return out;
}

// The buffer cut into `pieces` pieces (fewer only if it is shorter than
// that) at pseudo-random points, anywhere in the message.
function splitPoints(buffer, pieces, seed = 1) {
  const n = Math.max(1, Math.min(pieces | 0, buffer.length));
  if (n === 1) return [buffer];
  let hash = (seed * 0x9e3779b1) ^ buffer.length;
  for (let i = 0; i < buffer.length; i += 13) hash = Math.imul(hash ^ buffer[i], 16777619);
  const random = prng(hash >>> 0);
  const cuts = new Set();
  while (cuts.size < n - 1) cuts.add(1 + Math.floor(random() * (buffer.length - 1)));
  return cutAt(buffer, [...cuts].sort((a, b) => a - b));
}

// The serialized corpus: every parser benchmark checks that each message
// parses whole, in its pieces, with both parsers (common.verifyWorkload).
function corpusBuffers(kind = 'request', count = 1000, seed = 1) {
  if (kind === 'request') return requestCorpus({ count, seed }).map(serializeRequest);
  if (kind === 'response') return responseCorpus({ count, seed }).map(serializeResponse);
  throw new Error(`unknown corpus kind "${kind}" (request or response)`);
}

module.exports = { requestCorpus, responseCorpus, serializeRequest, serializeResponse, splitPoints, corpusBuffers, prng, cutAt };
