'use strict';
// What the connection loop (./connection.js) and the two messages
// (./request.js, ./response.js) say to each other, all of it named here.
// The loop owns the connection: its socket, the order of the answers and
// the bytes of an answer whose turn has not come. A message talks to the
// loop only through the Connection methods marked "(seam)" there, and the
// loop to a message only through these symbols (and their public API), so
// another pair of classes can sit on the same loop (the server's
// IncomingMessage / ServerResponse options take subclasses of ours).

module.exports = {
  // ---- the server and the loop ----
  // socket[kInSocketContext](fn, arg): fn(arg) in the async context of a
  // socket that has no handle of node's (the native transport's), so that
  // what its connection makes there is triggered by it; undefined on others.
  kInSocketContext: Symbol('llhttp-napi/server in the socket\'s context'),
  // socket[kIdleTimer]: on a socket whose idle timeout is not node:net's
  // (the native transport's), the timer its last setTimeout() made, as the
  // loop uses net's: { _idleTimeout, _onTimeout, _timerArgs, refresh() }
  // (null: none); undefined on others.
  kIdleTimer: Symbol('llhttp-napi/server idle timer'),
  // socket[kHandOver](then): on a socket that is not node:net's (the native
  // transport's), an upgrade or CONNECT: then(socket), a net.Socket over the
  // same connection (this one stands for it from then on), or then(null)
  // when it cannot be handed over; undefined on others.
  kHandOver: Symbol('llhttp-napi/server hand over'),
  // socket[kConnection], parser[kConnection]: the connection's loop.
  kConnection: Symbol('llhttp-napi/server connection'),
  // server[kConnectionsSet]: its open connections (the timeout checker,
  // closeIdleConnections()).
  kConnectionsSet: Symbol('llhttp-napi/server connections'),
  // server[kIncomingMessage], server[kServerResponse]: the classes the loop
  // makes requests and responses of (undefined: ./request.js, ./response.js).
  kIncomingMessage: Symbol('llhttp-napi/server IncomingMessage'),
  kServerResponse: Symbol('llhttp-napi/server ServerResponse'),
  // server[kExpressMakers]: undefined, or for a server made with an Express
  // app, what ./express.js made for it: { app, request(socket),
  // response(req) }, which make the server's request / response with the
  // app's prototypes (app.request / app.response).
  kExpressMakers: Symbol('llhttp-napi/server Express makers'),
  // What node:http keeps on a server under private symbols of its own, under
  // ours (./options.js stores them, the loop and the messages read them):
  // server[kUniqueHeaders]: null, or the Set of lowercase names whose lists
  // of values a response sends on one line; server[kOptimizeEmptyRequests]:
  // whether a request with no body headers is dumped before 'request'.
  kUniqueHeaders: Symbol('llhttp-napi/server uniqueHeaders'),
  kOptimizeEmptyRequests: Symbol('llhttp-napi/server optimizeEmptyRequests'),

  // ---- the loop to a request ----
  // req[kOpenRequest](loop, major, minor, method, url, upgrade, rawHeaders):
  // its head ([name, value, ...]: the request's own).
  kOpenRequest: Symbol('llhttp-napi/server open request'),
  // req[kBodyChunk](chunk) -> false when its reader is behind (the loop
  // stops reading until loop.bodyWanted()).
  kBodyChunk: Symbol('llhttp-napi/server body chunk'),
  // req[kBodyEnd](rawTrailers): the message is complete (trailers: null
  // for none).
  kBodyEnd: Symbol('llhttp-napi/server body end'),
  // req[kAnswered](): its response finished; a body nobody reads goes.
  kAnswered: Symbol('llhttp-napi/server answered'),
  // req[kDumpedAtOnce](): it has no body headers and the server was made with
  // optimizeEmptyRequests: it is ended, closed and dumped before 'request'.
  kDumpedAtOnce: Symbol('llhttp-napi/server dumped at once'),
  // req[kAnswerClosed](): its response closes, on the tick after kAnswered.
  kAnswerClosed: Symbol('llhttp-napi/server answer closed'),

  // ---- the loop to a response ----
  // res[kOpenResponse](loop, keepAlive): the loop it answers on.
  kOpenResponse: Symbol('llhttp-napi/server open response'),
  // res[kClosesConnection]: true once its head says the connection ends with
  // it, or the loop set it (the client ended its side, httpAllowHalfOpen).
  kClosesConnection: Symbol('llhttp-napi/server closes connection'),
  // res[kWritten](): its last bytes were written: the end() callbacks that
  // come before 'finish' (the loop then passes the turn on, as node:http's
  // first 'finish' listener would).
  kWritten: Symbol('llhttp-napi/server written'),
  // res[kFlushFailed](err) -> true: its last bytes could not be written and
  // it does not finish; false: it finishes anyway (the line's rule).
  kFlushFailed: Symbol('llhttp-napi/server flush failed'),
  // res[kAllSent](): its turn came after end(): all its bytes went to the
  // socket ('prefinish').
  kAllSent: Symbol('llhttp-napi/server all sent'),
  // res[kFinished](): after that, 'finish' (to the handler's listeners).
  kFinished: Symbol('llhttp-napi/server finished'),
  // res[kDetached](): its turn is over ('finish' came): socket is null.
  kDetached: Symbol('llhttp-napi/server detached'),
  // res[kClosed](): it closes ('close', once).
  kClosed: Symbol('llhttp-napi/server closed'),
  // res[kWritable](): the socket takes more bytes: 'drain' if it was asked.
  kWritable: Symbol('llhttp-napi/server writable'),
};
