#include "ConfluenceSystem.h"

int confluence_debug_hook_active = 0;
