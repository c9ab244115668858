/* The C module's only header: xsession.h comes from the include path pkg-config gives
 * (`pkg-config --cflags xsession`), so the module map holds no absolute path. */
#include <xsession.h>
