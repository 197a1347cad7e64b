#ifndef CPASSMINT_OPENSSL_SHIM_H
#define CPASSMINT_OPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/pkcs12.h>
#include <openssl/provider.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
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

static inline unsigned long cpassmint_XN_FLAG_RFC2253(void) { return (XN_FLAG_RFC2253 & ~XN_FLAG_DN_REV & ~ASN1_STRFLGS_ESC_MSB); }

static inline int cpassmint_sk_CMS_SignerInfo_num(STACK_OF(CMS_SignerInfo) *stack) { return sk_CMS_SignerInfo_num(stack); }
static inline CMS_SignerInfo *cpassmint_sk_CMS_SignerInfo_value(STACK_OF(CMS_SignerInfo) *stack, int i) { return sk_CMS_SignerInfo_value(stack, i); }

/* The NID of the password-based encryption of a PKCS#12 bundle's first encrypted safe: a PKCS#12 PBE such as
   pbeWithSHA1And40BitRC2-CBC (what macOS Keychain writes; needs OpenSSL 3's legacy provider) or PBES2 (modern).
   For PBES2 the cipher's NID is returned in *cipher_nid. 0 when the bundle has no encrypted safe. */
static inline int cpassmint_PKCS12_encryption_nid(PKCS12 *p12, int *cipher_nid) {
    *cipher_nid = 0;
    STACK_OF(PKCS7) *safes = PKCS12_unpack_authsafes(p12);
    if (safes == NULL) return 0;
    int nid = 0;
    for (int i = 0; i < sk_PKCS7_num(safes); i++) {
        PKCS7 *p7 = sk_PKCS7_value(safes, i);
        if (OBJ_obj2nid(p7->type) == NID_pkcs7_encrypted && p7->d.encrypted != NULL && p7->d.encrypted->enc_data != NULL) {
            const X509_ALGOR *algorithm = p7->d.encrypted->enc_data->algorithm;
            nid = OBJ_obj2nid(algorithm->algorithm);
            if (nid == NID_pbes2 && algorithm->parameter != NULL && algorithm->parameter->type == V_ASN1_SEQUENCE) {
                PBE2PARAM *params = ASN1_TYPE_unpack_sequence(ASN1_ITEM_rptr(PBE2PARAM), algorithm->parameter);
                if (params != NULL) {
                    *cipher_nid = OBJ_obj2nid(params->encryption->algorithm);
                    PBE2PARAM_free(params);
                }
            }
            break;
        }
    }
    sk_PKCS7_pop_free(safes, PKCS7_free);
    return nid;
}

static inline void cpassmint_OPENSSL_free(void *ptr) { OPENSSL_free(ptr); }

#endif
