/* ODSQL: the query language of the Explore API (explore-api.md "Query language", supplement 5).
   One grammar for the four clauses: parse.ts injects a START_* token before the clause text.
   Actions are one-liners calling the builders of src/odsql/builders.ts (yy). */

%lex
%options case-insensitive ranges

ident       [A-Za-z_][A-Za-z0-9_]*
squoted     "'"(?:\\[\s\S]|[^\\'])*"'"
dquoted     \"(?:\\[\s\S]|[^\\"])*\"

%%

\s+                                   /* spaces are optional */
"date"\s*({squoted}|{dquoted})        return 'DATE_LITERAL'
"geom"\s*({squoted}|{dquoted})        return 'GEOM_LITERAL'
{squoted}|{dquoted}                   return 'STRING'
"`"(?:\\[\s\S]|[^\\`])*"`"            return 'BACKQUOTED'
[0-9]+(?:\.[0-9]+)?[eE][+-]?[0-9]+\b return 'NUMBER'
[0-9]+(?:\.[0-9]+)?[A-Za-z]+\b        return 'QUANTITY'
[0-9]+(?:\.[0-9]+)?\b                 return 'NUMBER'
"and"                                 return 'AND'
"or"                                  return 'OR'
"not"                                 return 'NOT'
"as"                                  return 'AS'
"asc"                                 return 'ASC'
"desc"                                return 'DESC'
"distinct"                            return 'DISTINCT'
"is"                                  return 'IS'
"in"                                  return 'IN'
"like"                                return 'LIKE'
"to"                                  return 'TO'
"null"                                return 'NULL'
"true"                                return 'TRUE'
"false"                               return 'FALSE'
{ident}"*"(?=\s*[),])                 return 'PATTERN'
{ident}(?:"."{ident})*                return 'IDENT'
".."                                  return '..'
"!="                                  return '!='
"<>"                                  return '<>'
"<="                                  return '<='
">="                                  return '>='
"="                                   return '='
"<"                                   return '<'
">"                                   return '>'
":"                                   return ':'
"+"                                   return '+'
"-"                                   return '-'
"*"                                   return '*'
"/"                                   return '/'
"("                                   return '('
")"                                   return ')'
"["                                   return '['
"]"                                   return ']'
","                                   return ','
<<EOF>>                               return 'EOF'
.                                     return 'INVALID'

/lex

%left OR
%left AND
%right NOT
%nonassoc '=' '!=' '<>' '<' '>' '<=' '>=' ':' LIKE IN IS
%left '+' '-'
%left '*' '/'
%right UMINUS

%start clause

%%

clause
    : START_SELECT items EOF                    { return $2; }
    | START_WHERE expr EOF                      { return $2; }
    | START_GROUP_BY items EOF                  { return $2; }
    | START_ORDER_BY order_items EOF            { return $2; }
    ;

items
    : item                                      { $$ = yy.list($1); }
    | items ',' item                            { $$ = yy.append($1, $3); }
    ;

item
    : expr                                      { $$ = yy.item($1, null, @$); }
    | expr AS IDENT                             { $$ = yy.item($1, $3, @$); }
    | expr AS BACKQUOTED                        { $$ = yy.item($1, yy.unquote($3), @$); }
    ;

order_items
    : order_item                                { $$ = yy.list($1); }
    | order_items ',' order_item                { $$ = yy.append($1, $3); }
    ;

order_item
    : expr                                      { $$ = yy.orderItem($1, null, @$); }
    | expr ASC                                  { $$ = yy.orderItem($1, 'asc', @$); }
    | expr DESC                                 { $$ = yy.orderItem($1, 'desc', @$); }
    ;

expr
    : expr OR expr                              { $$ = yy.logical('or', $1, $3, @$); }
    | expr AND expr                             { $$ = yy.logical('and', $1, $3, @$); }
    | NOT expr                                  { $$ = yy.not($2, @$); }
    | expr '=' expr                             { $$ = yy.comparison($2, $1, $3, @$); }
    | expr ':' expr                             { $$ = yy.comparison($2, $1, $3, @$); }
    | expr '!=' expr                            { $$ = yy.comparison($2, $1, $3, @$); }
    | expr '<>' expr                            { $$ = yy.comparison($2, $1, $3, @$); }
    | expr '<' expr                             { $$ = yy.comparison($2, $1, $3, @$); }
    | expr '>' expr                             { $$ = yy.comparison($2, $1, $3, @$); }
    | expr '<=' expr                            { $$ = yy.comparison($2, $1, $3, @$); }
    | expr '>=' expr                            { $$ = yy.comparison($2, $1, $3, @$); }
    | expr LIKE expr                            { $$ = yy.like($1, $3, @$); }
    | expr IS NULL                              { $$ = yy.is($1, 'null', @$); }
    | expr IS NOT NULL                          { $$ = yy.is($1, 'not_null', @$); }
    | expr IS TRUE                              { $$ = yy.is($1, 'true', @$); }
    | expr IS FALSE                             { $$ = yy.is($1, 'false', @$); }
    | expr IN bracket expr range_to expr bracket { $$ = yy.inRange($1, $3, $4, $6, $7, @$); }
    | expr ':' bracket expr range_to expr bracket { $$ = yy.inRange($1, $3, $4, $6, $7, @$); }
    | expr IN '(' exprs ')'                     { $$ = yy.inList($1, $4, @$); }
    | expr IN field                             { $$ = yy.member($1, $3, @$); }
    | expr '+' expr                             { $$ = yy.arithmetic($2, $1, $3, @$); }
    | expr '-' expr                             { $$ = yy.arithmetic($2, $1, $3, @$); }
    | expr '*' expr                             { $$ = yy.arithmetic($2, $1, $3, @$); }
    | expr '/' expr                             { $$ = yy.arithmetic($2, $1, $3, @$); }
    | '-' expr %prec UMINUS                     { $$ = yy.negate($2, @$); }
    | primary                                   { $$ = $1; }
    ;

bracket
    : '['                                       { $$ = $1; }
    | ']'                                       { $$ = $1; }
    ;

/* `..` and `TO` (explore-api.md); `,` as v2.0 clients write it (docs/odsql.md). */
range_to
    : '..'
    | TO
    | ','
    ;

exprs
    : expr                                      { $$ = yy.list($1); }
    | exprs ',' expr                            { $$ = yy.append($1, $3); }
    ;

primary
    : STRING                                    { $$ = yy.string($1, @$); }
    | NUMBER                                    { $$ = yy.number($1, @$); }
    | QUANTITY                                  { $$ = yy.quantity($1, @$); }
    | NUMBER IDENT                              { $$ = yy.quantity($1 + $2, @$); }
    | DATE_LITERAL                              { $$ = yy.date($1, @$); }
    | GEOM_LITERAL                              { $$ = yy.geometry($1, @$); }
    | TRUE                                      { $$ = yy.boolean(true, @$); }
    | FALSE                                     { $$ = yy.boolean(false, @$); }
    | NULL                                      { $$ = yy.nullLiteral(@$); }
    | '*'                                       { $$ = yy.star(@$); }
    | PATTERN                                   { $$ = yy.pattern($1, @$); }
    | field                                     { $$ = $1; }
    | '(' expr ')'                              { $$ = $2; }
    | IDENT '(' ')'                             { $$ = yy.call($1, [], false, @$); }
    | IDENT '(' args ')'                        { $$ = yy.call($1, $3, false, @$); }
    | IDENT '(' DISTINCT args ')'               { $$ = yy.call($1, $4, true, @$); }
    ;

field
    : IDENT                                     { $$ = yy.field($1, @$); }
    | BACKQUOTED                                { $$ = yy.quotedField($1, @$); }
    ;

args
    : arg                                       { $$ = yy.list($1); }
    | args ',' arg                              { $$ = yy.append($1, $3); }
    ;

arg
    : expr                                      { $$ = $1; }
    | bracket exprs bracket                     { $$ = yy.bounds($1, $2, $3, @$); }
    ;
