/* Error codes to text. */
#include "lowprof/core.h"

const char *lp_strerror(int code)
{
    switch (code) {
    case LP_OK: return "success";
    case LP_ENOMEM: return "out of memory";
    case LP_EIO: return "input/output error";
    case LP_EFORMAT: return "malformed input";
    case LP_ECHECKSUM: return "checksum mismatch";
    case LP_EVERSION: return "unsupported format version";
    case LP_ETRUNC: return "input ends early (truncated)";
    case LP_EINVAL: return "invalid argument";
    case LP_ELIMIT: return "input exceeds a reader limit";
    case LP_ENOENT: return "not found";
    case LP_ESPEC: return "malformed specification";
    default: return "unknown error code";
    }
}
