/* The contract's names and numbers as one table: see lhn_contract.h. */
#include "lhn_contract.h"

#include <llhttp.h>

_Static_assert((int)LHN_HPE_USER == (int)HPE_USER, "the contract's HPE_USER is llhttp's");

#define LHN_ENTRY(prefix, name, value) {prefix #name, value},
#define LHN_EV_ENTRY(name, value, what) LHN_ENTRY("EV_", name, value)
#define LHN_HC_ENTRY(name, value, what) LHN_ENTRY("HC_", name, value)
#define LHN_PAIR_ENTRY(name, value, what) LHN_ENTRY("PAIR_", name, value)
#define LHN_WS_ENTRY(name, value, what) LHN_ENTRY("WS_", name, value)
#define LHN_CMD_ENTRY(name, value, what) LHN_ENTRY("CMD_", name, value)
#define LHN_HAS_ENTRY(name, value, what) LHN_ENTRY("HAS_", name, value)
#define LHN_REWIND_ENTRY(name, value, what) LHN_ENTRY("REWIND_", name, value)
#define LHN_SEAM_ENTRY(name, value, what) LHN_ENTRY("", name, value)

static const lhn_layout_entry entries[] = {
  LHN_EVENT_KINDS(LHN_EV_ENTRY)
  LHN_EVENT_SLOT_LIST(LHN_EV_ENTRY)
  LHN_HEADERS_FLAGS(LHN_HC_ENTRY)
  LHN_PAIR_SLOT_LIST(LHN_PAIR_ENTRY)
  LHN_WORKSPACE_SLOT_LIST(LHN_WS_ENTRY)
  LHN_COMMAND_LIST(LHN_CMD_ENTRY)
  LHN_HANDLER_LIST(LHN_HAS_ENTRY)
  LHN_REWIND_LIST(LHN_REWIND_ENTRY)
  LHN_SEAM_LIST(LHN_SEAM_ENTRY)
  {"EVENT_SLOTS", LHN_EVENT_SLOTS},
  {"PAIR_SLOTS", LHN_PAIR_SLOTS},
  {"WORKSPACE_SLOTS", LHN_WORKSPACE_SLOTS},
};

const lhn_layout_entry *lhn_layout(unsigned *count) {
  *count = sizeof(entries) / sizeof(entries[0]);
  return entries;
}
