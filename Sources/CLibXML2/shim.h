// Debian's libxml2 is built with ICU, so <libxml/encoding.h> pulls in the system ICU headers, whose
// UErrorCode clashes with Foundation's _FoundationICU on Swift 6.3.x. We never touch the ICU-only
// fields of xmlCharEncodingHandler, so hiding them is safe.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

// libxml2 reports errors through a structured callback whose signature changed in 2.12
// (`xmlError *` became `const xmlError *`). Setting it from C keeps the Swift side version-proof; the
// callback does nothing because we read the error afterwards with xmlCtxtGetLastError(). Without it,
// libxml2 would print every error to stderr itself.
static void clibxml2_ignore_error(void *context, const xmlError *error) {
    (void)context;
    (void)error;
}

static inline void clibxml2_silence_errors(xmlSAXHandler *handler) {
    handler->serror = (xmlStructuredErrorFunc)clibxml2_ignore_error;
}

// Some libxml2 2.9 errors (encoding conversion, I/O) still go to the generic error function, which prints to
// stderr, whatever structured handler is set. It is variadic (C only) and, in 2.9, per thread: set it, and the
// default for new threads, on the thread that parses.
static void clibxml2_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline void clibxml2_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, clibxml2_ignore_generic_error);
    xmlThrDefSetGenericErrorFunc(NULL, clibxml2_ignore_generic_error);
}
