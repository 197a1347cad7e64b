#!/usr/bin/env python3
"""Apple Pay test vectors for PassmintPay's tests, made with Python's `cryptography`, independently of PassmintPay.

    make_tokens.py OUTPUT_FOLDER

Writes into OUTPUT_FOLDER (nothing here is committed: every key is new on each run):
  root.pem, other-root.pem           a test CA with Apple's marker OIDs, and a CA that is not trusted
  merchant-ec[-2].pem/-key.pem       EC P-256 payment processing certificates (OID 1.2.840.113635.100.6.32)
  merchant-rsa.pem/-key.pem          an RSA-2048 one
  merchant-no-id.pem/-key.pem        a certificate without the merchant identifier extension
  tokens/<name>.json                 tokens, good ones and the tamper set
  manifest.json                      per token: what it is, its transaction id, signing time and plaintext

The CMS SignedData is written by hand (DER below), because `cryptography`'s PKCS #7 builder always stamps the
current time as the signing time and the tests need chosen ones.
"""
import base64
import datetime
import hashlib
import json
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.concatkdf import ConcatKDFHash
from cryptography.x509.oid import NameOID

UTC = datetime.timezone.utc
SIGNED_AT = datetime.datetime(2026, 1, 15, 10, 0, 0, tzinfo=UTC)
OLD_SIGNED_AT = datetime.datetime(2021, 9, 1, 19, 3, 6, tzinfo=UTC)
MERCHANT_ID = "merchant.dev.passmint.test"
LEAF_OID = "1.2.840.113635.100.6.29"
INTERMEDIATE_OID = "1.2.840.113635.100.6.2.14"
MERCHANT_ID_OID = "1.2.840.113635.100.6.32"


# --- DER, just enough for a CMS SignedData ---------------------------------------------------------------------------
def der(tag, content):
    n = len(content)
    if n < 0x80:
        length = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        length = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + length + content


def seq(*items):
    return der(0x30, b"".join(items))


def set_of(*items):
    return der(0x31, b"".join(sorted(items)))


def oid(dotted):
    parts = [int(p) for p in dotted.split(".")]
    body = bytes([40 * parts[0] + parts[1]])
    for part in parts[2:]:
        chunk = [part & 0x7F]
        part >>= 7
        while part:
            chunk.insert(0, 0x80 | (part & 0x7F))
            part >>= 7
        body += bytes(chunk)
    return der(0x06, body)


def integer(value):
    raw = value.to_bytes((value.bit_length() + 8) // 8, "big")
    return der(0x02, raw)


# Per digest: its OID, hashlib's name, cryptography's hash, ecdsa-with-… and …WithRSAEncryption OIDs.
DIGESTS = {
    "sha256": ("2.16.840.1.101.3.4.2.1", "sha256", hashes.SHA256, "1.2.840.10045.4.3.2", "1.2.840.113549.1.1.11"),
    "sha384": ("2.16.840.1.101.3.4.2.2", "sha384", hashes.SHA384, "1.2.840.10045.4.3.3", "1.2.840.113549.1.1.12"),
}


def cms_detached(content, signer_cert, signer_key, certificates, signing_time, digest="sha256"):
    """A DER ContentInfo/SignedData over `content` (detached), signed attributes with the signing time."""
    digest_oid, hashlib_name, hash_class, ecdsa_oid, rsa_oid = DIGESTS[digest]
    digest_algorithm = seq(oid(digest_oid))
    attributes = [
        seq(oid("1.2.840.113549.1.9.3"), set_of(oid("1.2.840.113549.1.7.1"))),  # contentType: data
        seq(oid("1.2.840.113549.1.9.5"), set_of(der(0x17, signing_time.strftime("%y%m%d%H%M%SZ").encode()))),
        seq(oid("1.2.840.113549.1.9.4"), set_of(der(0x04, hashlib.new(hashlib_name, content).digest()))),  # messageDigest
    ]
    signed_attributes = set_of(*attributes)
    if isinstance(signer_key, ec.EllipticCurvePrivateKey):
        signature = signer_key.sign(signed_attributes, ec.ECDSA(hash_class()))
        algorithm = seq(oid(ecdsa_oid))
    else:
        signature = signer_key.sign(signed_attributes, padding.PKCS1v15(), hash_class())
        algorithm = seq(oid(rsa_oid))
    signer_info = seq(
        integer(1),
        seq(signer_cert.issuer.public_bytes(), integer(signer_cert.serial_number)),
        digest_algorithm,
        b"\xa0" + signed_attributes[1:],  # [0] IMPLICIT SET OF Attribute
        algorithm,
        der(0x04, signature),
    )
    certs = der(0xA0, b"".join(c.public_bytes(serialization.Encoding.DER) for c in certificates))
    signed_data = seq(integer(1), set_of(digest_algorithm), seq(oid("1.2.840.113549.1.7.1")), certs, set_of(signer_info))
    return seq(oid("1.2.840.113549.1.7.2"), der(0xA0, signed_data))


# --- certificates ----------------------------------------------------------------------------------------------------
def name(cn, uid=None):
    attributes = []
    if uid:
        attributes.append(x509.NameAttribute(NameOID.USER_ID, uid))
    attributes += [
        x509.NameAttribute(NameOID.COMMON_NAME, cn),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Passmint Test"),
        x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
    ]
    return x509.Name(attributes)


def certificate(subject, key, issuer, issuer_key, ca, markers=(), not_before=None, not_after=None, extra=()):
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before or datetime.datetime(2020, 1, 1, tzinfo=UTC))
        .not_valid_after(not_after or datetime.datetime(2035, 1, 1, tzinfo=UTC))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    for marker in markers:
        builder = builder.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier(marker), b"\x05\x00"), critical=False)
    for extension in extra:
        builder = builder.add_extension(extension, critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def write_pem(path, cert=None, key=None):
    with open(path, "wb") as f:
        if cert is not None:
            f.write(cert.public_bytes(serialization.Encoding.PEM))
        if key is not None:
            f.write(
                key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                )
            )


def spki(public_key):
    return public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def merchant_certificate(key, issuer, issuer_key, tag, uppercase, with_id=True):
    hex_hash = hashlib.sha256(MERCHANT_ID.encode()).hexdigest()
    hex_hash = hex_hash.upper() if uppercase else hex_hash
    # Apple writes the hash as 64 hex digits in a DER string (IA5String or UTF8String) inside the extension.
    extra = [x509.UnrecognizedExtension(x509.ObjectIdentifier(MERCHANT_ID_OID), bytes([tag, 64]) + hex_hash.encode())]
    return certificate(
        name("Apple Pay Payment Processing:" + MERCHANT_ID, uid=MERCHANT_ID),
        key,
        issuer,
        issuer_key,
        ca=False,
        not_before=datetime.datetime(2025, 6, 1, tzinfo=UTC),
        not_after=datetime.datetime(2027, 6, 30, tzinfo=UTC),
        extra=extra if with_id else [],
    )


# --- tokens ----------------------------------------------------------------------------------------------------------
ZERO_IV = b"\x00" * 16


def encrypt(version, merchant_public_key, plaintext, mgf1=hashes.SHA256):
    """Returns (header key name, header key bytes, ciphertext ‖ tag)."""
    if version == "EC_v1":
        ephemeral = ec.generate_private_key(ec.SECP256R1())
        z = ephemeral.exchange(ec.ECDH(), merchant_public_key)
        other_info = b"\x0did-aes256-GCM" + b"Apple" + hashlib.sha256(MERCHANT_ID.encode()).digest()
        key = ConcatKDFHash(algorithm=hashes.SHA256(), length=32, otherinfo=other_info).derive(z)
        return "ephemeralPublicKey", spki(ephemeral.public_key()), AESGCM(key).encrypt(ZERO_IV, plaintext, None)
    key = os.urandom(16)
    wrapped = merchant_public_key.encrypt(
        key, padding.OAEP(mgf=padding.MGF1(algorithm=mgf1()), algorithm=hashes.SHA256(), label=None)
    )
    return "wrappedKey", wrapped, AESGCM(key).encrypt(ZERO_IV, plaintext, None)


def main(out):
    os.makedirs(os.path.join(out, "tokens"), exist_ok=True)
    root_key = ec.generate_private_key(ec.SECP384R1())
    root_name = name("Passmint Test Root CA - G3")
    root = certificate(root_name, root_key, root_name, root_key, ca=True)
    other_root_key = ec.generate_private_key(ec.SECP384R1())
    other_root_name = name("Not Apple Root CA")
    other_root = certificate(other_root_name, other_root_key, other_root_name, other_root_key, ca=True)
    intermediate_key = ec.generate_private_key(ec.SECP256R1())
    intermediate_name = name("Passmint Test Application Integration CA - G3")
    intermediate = certificate(intermediate_name, intermediate_key, root_name, root_key, ca=True, markers=[INTERMEDIATE_OID])
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    leaf = certificate(name("ecc-smp-broker-sign_UC4-TEST"), leaf_key, intermediate_name, intermediate_key, ca=False, markers=[LEAF_OID])
    rsa_leaf_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_leaf = certificate(name("rsa-smp-broker-sign-TEST"), rsa_leaf_key, intermediate_name, intermediate_key, ca=False, markers=[LEAF_OID])
    plain_leaf_key = ec.generate_private_key(ec.SECP256R1())
    plain_leaf = certificate(name("leaf-without-marker"), plain_leaf_key, intermediate_name, intermediate_key, ca=False)
    foreign_intermediate_key = ec.generate_private_key(ec.SECP256R1())
    foreign_intermediate_name = name("Foreign Integration CA")
    foreign_intermediate = certificate(
        foreign_intermediate_name, foreign_intermediate_key, other_root_name, other_root_key, ca=True, markers=[INTERMEDIATE_OID]
    )
    foreign_leaf_key = ec.generate_private_key(ec.SECP256R1())
    foreign_leaf = certificate(
        name("foreign-leaf"), foreign_leaf_key, foreign_intermediate_name, foreign_intermediate_key, ca=False, markers=[LEAF_OID]
    )
    write_pem(os.path.join(out, "root.pem"), root)
    write_pem(os.path.join(out, "other-root.pem"), other_root)

    # The merchant's payment processing certificates are issued by a WWDR-like CA; the tests do not chain them.
    wwdr_key = ec.generate_private_key(ec.SECP256R1())
    wwdr_name = name("Passmint Test WWDR CA - G2")
    merchants = {}
    for label, key, tag, upper, with_id in [
        ("merchant-ec", ec.generate_private_key(ec.SECP256R1()), 0x16, True, True),
        ("merchant-ec-2", ec.generate_private_key(ec.SECP256R1()), 0x0C, False, True),
        ("merchant-rsa", rsa.generate_private_key(public_exponent=65537, key_size=2048), 0x0C, False, True),
        ("merchant-no-id", ec.generate_private_key(ec.SECP256R1()), 0x16, True, False),
    ]:
        cert = merchant_certificate(key, wwdr_name, wwdr_key, tag, upper, with_id)
        write_pem(os.path.join(out, label + ".pem"), cert)
        write_pem(os.path.join(out, label + "-key.pem"), key=key)
        merchants[label] = (cert, key)

    three_d_secure = {
        "applicationPrimaryAccountNumber": "4109370251004320",
        "applicationExpirationDate": "291231",
        "currencyCode": "840",
        "transactionAmount": 1999,
        "cardholderName": "Jane Appleseed",
        "deviceManufacturerIdentifier": "040010030273",
        "paymentDataType": "3DSecure",
        "paymentData": {"onlinePaymentCryptogram": "Af9x/QwAA/DjmU65oyc1MAABAAA=", "eciIndicator": "5"},
    }
    emv = {
        "applicationPrimaryAccountNumber": "6212345678901232",
        "applicationExpirationDate": "300630",
        "currencyCode": "156",
        "transactionAmount": 8800,
        "deviceManufacturerIdentifier": "050110030273",
        "paymentDataType": "EMV",
        "paymentData": {"emvData": "nxAvbYKBcS1AaTLRl2DsYg==", "encryptedPINData": "Kx3PINBLOCK0099"},
    }
    merchant_token = dict(
        three_d_secure,
        applicationPrimaryAccountNumber="5204245250001488",
        merchantTokenIdentifier="DNITHE302308980427388633",
        merchantTokenMetadata={"cardArtAsset": "https://example.invalid/art.png", "cardMetadata": {"lastFour": "1488"}},
        somethingApplePlansLater={"nested": [1, 2]},
    )
    manifest = {}

    def token(
        file,
        merchant,
        plaintext,
        application_data=None,
        signer=(leaf, leaf_key),
        chain=None,
        signed_at=SIGNED_AT,
        whole=False,
        tamper=None,
        mgf1=hashes.SHA256,
        digest="sha256",
        what="",
    ):
        cert, key = merchants[merchant]
        version = "EC_v1" if isinstance(key, ec.EllipticCurvePrivateKey) else "RSA_v1"
        header_key, key_bytes, data = encrypt(version, cert.public_key(), json.dumps(plaintext).encode(), mgf1)
        transaction = os.urandom(32)
        app_data = hashlib.sha256(application_data.encode()).digest() if application_data else b""
        signed = key_bytes + data + transaction + app_data
        certificates = chain if chain is not None else [signer[0], intermediate]
        signature = cms_detached(signed, signer[0], signer[1], certificates, signed_at, digest)
        public_key_hash = base64.b64encode(hashlib.sha256(spki(cert.public_key())).digest()).decode()
        signed_transaction = transaction  # the manifest records what was signed, before any tampering
        if tamper == "data":
            data = data[:10] + bytes([data[10] ^ 0x01]) + data[11:]
        elif tamper == "ephemeral":
            key_bytes = key_bytes[:-5] + bytes([key_bytes[-5] ^ 0x01]) + key_bytes[-4:]
        elif tamper == "transaction":
            transaction = transaction[:-1] + bytes([transaction[-1] ^ 0x01])
        elif tamper == "hash":
            other = ec.generate_private_key(ec.SECP256R1()).public_key()
            public_key_hash = base64.b64encode(hashlib.sha256(spki(other)).digest()).decode()
        header = {
            header_key: base64.b64encode(key_bytes).decode(),
            "publicKeyHash": public_key_hash,
            "transactionId": transaction.hex(),
        }
        if app_data:
            header["applicationData"] = app_data.hex()
        payment_data = {
            "version": version,
            "data": base64.b64encode(data).decode(),
            "signature": base64.b64encode(signature).decode(),
            "header": header,
        }
        body = payment_data
        if whole:
            body = {
                "paymentData": payment_data,
                "paymentMethod": {"displayName": "Visa 0224", "network": "Visa", "type": "debit"},
                "transactionIdentifier": transaction.hex().upper(),
            }
        with open(os.path.join(out, "tokens", file + ".json"), "w") as f:
            json.dump(body, f, indent=2)
        manifest[file] = {
            "what": what,
            "merchant": merchant,
            "version": version,
            "transactionId": signed_transaction.hex(),
            "publicKeyHash": public_key_hash,
            "signingTime": signed_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "plaintext": plaintext,
        }

    token("ec", "merchant-ec", three_d_secure, what="EC_v1, paymentData alone")
    token("ec-whole-appdata", "merchant-ec", three_d_secure, application_data="order-1042", whole=True, what="EC_v1, whole token, applicationData")
    token("ec-2", "merchant-ec-2", three_d_secure, what="EC_v1 to the second (rotated) EC key")
    token("ec-merchant-token", "merchant-ec", merchant_token, what="EC_v1 with merchant token fields and an unknown key")
    token("rsa", "merchant-rsa", three_d_secure, what="RSA_v1, paymentData alone")
    token("rsa-appdata-emv", "merchant-rsa", emv, application_data="order-2077", what="RSA_v1, applicationData, EMV")
    token("rsa-mgf1-sha1", "merchant-rsa", three_d_secure, mgf1=hashes.SHA1, what="RSA_v1 wrapped with MGF1-SHA-1")
    token("rsa-signer", "merchant-rsa", emv, signer=(rsa_leaf, rsa_leaf_key), what="RSA_v1 signed by an RSA leaf (RSA, SHA-256)")
    token("tamper-data", "merchant-ec", three_d_secure, tamper="data", what="a flipped byte of data")
    token("tamper-ephemeral", "merchant-ec", three_d_secure, tamper="ephemeral", what="a flipped byte of the ephemeral key")
    token("tamper-transaction", "merchant-ec", three_d_secure, tamper="transaction", what="a flipped byte of transactionId")
    token("wrong-hash", "merchant-ec", three_d_secure, tamper="hash", what="a publicKeyHash of a key nobody holds")
    token("no-intermediate", "merchant-ec", three_d_secure, chain=[leaf], what="a signature without the intermediate")
    token(
        "leaf-without-oid", "merchant-ec", three_d_secure, signer=(plain_leaf, plain_leaf_key), chain=[plain_leaf, intermediate],
        what="a leaf without the marker OID",
    )
    token("sha384-digest", "merchant-ec", three_d_secure, digest="sha384", what="signed with SHA-384 instead of SHA-256")
    token("old-signing-time", "merchant-ec", three_d_secure, signed_at=OLD_SIGNED_AT, what="signed in 2021")
    token(
        "foreign-root", "merchant-ec", three_d_secure, signer=(foreign_leaf, foreign_leaf_key), chain=[foreign_leaf, foreign_intermediate],
        what="marker OIDs, but chained to another root",
    )
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)


if __name__ == "__main__":
    main(sys.argv[1])
