#ifndef CPASSMINT_OPENSSL_SHIM_H
#define CPASSMINT_OPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/cms.h>
#include <openssl/x509_vfy.h>

/* Wrappers for what Swift cannot import: function-like macros and the typed stack helpers. */

static inline long cpassmint_BIO_get_mem_data(BIO *bio, char **out) {
    return BIO_get_mem_data(bio, out);
}

static inline STACK_OF(X509) *cpassmint_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int cpassmint_sk_X509_push(STACK_OF(X509) *stack, X509 *cert) { return sk_X509_push(stack, cert); }
static inline int cpassmint_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *cpassmint_sk_X509_value(const STACK_OF(X509) *stack, int i) { return sk_X509_value(stack, i); }
static inline void cpassmint_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
static inline void cpassmint_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

static inline unsigned long cpassmint_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

static inline int cpassmint_sk_CMS_SignerInfo_num(STACK_OF(CMS_SignerInfo) *stack) { return sk_CMS_SignerInfo_num(stack); }
static inline CMS_SignerInfo *cpassmint_sk_CMS_SignerInfo_value(STACK_OF(CMS_SignerInfo) *stack, int i) { return sk_CMS_SignerInfo_value(stack, i); }

static inline void cpassmint_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }

#endif
