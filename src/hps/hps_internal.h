/* hps: the pattern expression pool shared by the parser (acf_parse.c), the
 * printer (acf_print.c) and the matcher (hps_match.c). */
#ifndef LP_HPS_INTERNAL_H
#define LP_HPS_INTERNAL_H

#include "lowprof/hps.h"

typedef enum lp__hps_node_kind {
    LP__HPS_TRUE = 1, /* an empty pattern never occurs; kept for "any" folding */
    LP__HPS_AND = 2,  /* a && b */
    LP__HPS_OR = 3,   /* a || b */
    LP__HPS_NOT = 4,  /* !a */
    LP__HPS_FLAG = 5, /* zero_N (flag 0) or overflow_N (flag 1) */
    LP__HPS_CMP = 6,  /* lhs cmp rhs */
} lp__hps_node_kind;

typedef enum lp__hps_cmp {
    LP__HPS_EQ = 1,
    LP__HPS_NE = 2,
    LP__HPS_LT = 3,
    LP__HPS_LE = 4,
    LP__HPS_GT = 5,
    LP__HPS_GE = 6,
} lp__hps_cmp;

/* Operands of a comparison. OPCLASS and OP compare only with == and !=
 * against a name (CLASSES: a class-bit mask, any = all ones; OPNAME: an
 * lp_hps_op); PC and TARGET compare with numbers or each other. */
typedef enum lp__hps_operand {
    LP__HPS_PC = 1,
    LP__HPS_TARGET = 2,
    LP__HPS_OPCLASS = 3,
    LP__HPS_OP = 4,
    LP__HPS_NUMBER = 5,
    LP__HPS_CLASSES = 6,
    LP__HPS_OPNAME = 7,
} lp__hps_operand;

typedef struct lp_hps_node {
    uint8_t kind;    /* lp__hps_node_kind */
    uint8_t cmp;     /* CMP: lp__hps_cmp */
    uint8_t flag;    /* FLAG: 0 zero, 1 overflow */
    uint8_t counter; /* FLAG */
    uint8_t lhs;     /* CMP: lp__hps_operand */
    uint8_t rhs;
    int a;           /* AND, OR, NOT: children (node indices) */
    int b;
    uint64_t lhs_value; /* NUMBER, CLASSES, OPNAME operands */
    uint64_t rhs_value;
} lp_hps_node;

#endif
