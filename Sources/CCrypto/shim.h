// OpenSSL's libcrypto (libssl-dev): SHA-256, HMAC and SipHash through the EVP interfaces, for the keyed
// pseudonyms of the de-identified copy. Nothing else of OpenSSL is used.
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
