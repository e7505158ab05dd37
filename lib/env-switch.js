'use strict';
// How the preload entries read their environment switches (LLHTTP_NAPI,
// LLHTTP_NAPI_INCOMING, LLHTTP_NAPI_SERVER).
const OFF = new Set(['0', 'off', 'false']);
const ON = new Set(['1', 'on', 'true']);

module.exports = {
  isOff: (value) => OFF.has(value),
  isOn: (value) => ON.has(value),
};
