/*
 * The llhttp callbacks of the core (internal to src/core): each records
 * what happened in the workspace of the call under way (p->ws) as events,
 * spans and pairs, as the built-in's callbacks would hand them to
 * JavaScript. lhn_parser_reset() gives them to llhttp.
 */
#ifndef LHN_CALLBACKS_H
#define LHN_CALLBACKS_H

#include "lhn_parser.h"

extern const llhttp_settings_t lhn_callbacks;

#endif /* LHN_CALLBACKS_H */
