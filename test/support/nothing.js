'use strict';
// A module that does nothing: the baseline of an --import (test/server/preload-async.test.js).
