// Type definitions for llhttp-napi.

/// <reference types="node" />

/** An error `execute()` or `finish()` returns (never throws) for bad input. */
export interface ParseError extends Error {
  /** llhttp's error name, e.g. `'HPE_INVALID_METHOD'`, or `'HPE_HEADER_OVERFLOW'`. */
  code: string;
  /** llhttp's reason text. */
  reason: string;
  /** Bytes of the buffer consumed before the error. */
  bytesParsed: number;
}

export interface InitializeOptions {
  /** kOnHeadersComplete gets no header array; read them with getAllHeaders()/getHeader(). */
  lazyHeaders?: boolean;
}

/**
 * A drop-in for Node 20's `require('_http_common').HTTPParser`: same statics,
 * methods, handlers, arguments and errors; plus batched and lazy header access.
 */
export class HTTPParser {
  static readonly REQUEST: 1;
  static readonly RESPONSE: 2;
  static readonly kOnMessageBegin: 0;
  static readonly kOnHeaders: 1;
  static readonly kOnHeadersComplete: 2;
  static readonly kOnBody: 3;
  static readonly kOnMessageComplete: 4;
  static readonly kOnExecute: 5;
  static readonly kOnTimeout: 6;
  static readonly kLenientNone: 0;
  static readonly kLenientHeaders: 1;
  static readonly kLenientChunkedLength: 2;
  static readonly kLenientKeepAlive: 4;
  static readonly kLenientTransferEncoding: 8;
  static readonly kLenientVersion: 16;
  static readonly kLenientDataAfterClose: 32;
  static readonly kLenientOptionalLFAfterCR: 64;
  static readonly kLenientOptionalCRLFAfterChunk: 128;
  static readonly kLenientOptionalCRBeforeLF: 256;
  static readonly kLenientSpacesAfterChunkSize: 512;
  static readonly kLenientAll: 1023;

  /** Handlers (keyed by the kOn* statics), called with `this` = the parser. */
  [0]?: () => void;
  [1]?: (headers: string[] | undefined, url: string) => void;
  [2]?: (
    versionMajor: number, versionMinor: number, headers: string[] | undefined,
    method: number | undefined, url: string | undefined, statusCode: number | undefined,
    statusMessage: string | undefined, upgrade: boolean, shouldKeepAlive: boolean,
  ) => number | void;
  [3]?: (chunk: Buffer) => void;
  [4]?: () => void;

  /** Lazy mode (off by default): see InitializeOptions. */
  lazyHeaders: boolean;

  initialize(type: 1 | 2, resource: object, maxHeaderSize?: number, lenientFlags?: number,
             connectionsList?: unknown, options?: InitializeOptions): void;
  /** Bytes parsed, or a ParseError; undefined after close(). */
  execute(data: ArrayBufferView | ArrayBuffer): number | ParseError | undefined;
  /** undefined, or a ParseError when the input ended mid-message. */
  finish(): ParseError | undefined;
  pause(): void;
  resume(): void;
  close(): void;
  free(): void;
  remove(): void;
  consume(handle: unknown): void;
  unconsume(): void;
  getCurrentBuffer(): Buffer;
  duration(): number;
  headersCompleted(): boolean;

  /**
   * All headers of the current message as `[name, value, ...]`: arrival order,
   * duplicates kept, names as received, Latin-1. `[]` outside the window from
   * headers complete to the next message's begin. No native call.
   */
  getAllHeaders(): string[];
  /** The first value whose name matches (ASCII case-insensitive), or undefined. */
  getHeader(name: string): string | undefined;
  /** The current message's trailers, with the same rules as getAllHeaders(). */
  getAllTrailers(): string[];
}

/** llhttp method names by llhttp's method number (47). */
export const allMethods: readonly string[];
/** The HTTP methods Node's `http.METHODS` is made from (35). */
export const methods: readonly string[];
/** The package, linked llhttp and N-API versions. */
export const versions: Readonly<{ addon: string; llhttp: string; napi: string }>;

export interface InstallOptions {
  /** Emit a process warning when falling back to the built-in parser (default true). */
  warn?: boolean;
  /** Throw instead of falling back when the addon cannot load (default false). */
  strict?: boolean;
  /**
   * Also install the IncomingMessage fast paths (fast dump of unread, fully received
   * messages; one-tick clean destroy). Default true; uninstall() removes them.
   */
  incoming?: boolean;
}

/** Make node:http / node:https use llhttp-napi for new connections; false on fallback. */
export function install(options?: InstallOptions): boolean;
/** Restore the built-in parser for new connections; false if nothing was installed. */
export function uninstall(): boolean;
export function isInstalled(): boolean;
