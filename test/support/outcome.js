'use strict';
// The outcome of one stream through a parser, in a form meant to be written
// down as expectations (test/vectors/smuggling.json):
//   { messages: [[url or status, body], ...], error?: code, stoppedAt?: n,
//     finishError?: code }
// The whole input in one execute(), then finish().
function outcome(HTTPParser, type, input, lenient) {
  const P = HTTPParser;
  const p = new P();
  p.initialize(type === 'request' ? P.REQUEST : P.RESPONSE, {}, 0, lenient);
  const messages = [];
  let current = null;
  let url = '';
  p[P.kOnHeaders] = (headers, u) => { url += u || ''; };
  p[P.kOnHeadersComplete] = (maj, min, headers, method, u, statusCode) => {
    current = [type === 'request' ? (u === undefined ? url : u) : statusCode, ''];
    url = '';
    return 0;
  };
  p[P.kOnBody] = (b) => { if (current) current[1] += b.toString('latin1'); };
  p[P.kOnMessageComplete] = () => {
    if (current) messages.push(current);
    current = null;
  };
  const buf = Buffer.from(input, 'latin1');
  const out = { messages };
  const r = p.execute(buf);
  if (r instanceof Error) out.error = r.code;
  else if (r !== buf.length) out.stoppedAt = r;
  if (r instanceof Error || r === buf.length) {
    const f = p.finish();
    if (f instanceof Error) out.finishError = f.code;
  }
  p.close();
  return out;
}

module.exports = { outcome };
