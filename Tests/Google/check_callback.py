#!/usr/bin/env python3
"""Checks a Google Wallet save/delete callback with the `cryptography` package, independently of Passmint.

Usage: check_callback.py BODY_FILE KEYS_FILE ISSUER_ID
Follows Google's ECv2SigningOnly protocol (sender "GooglePayPasses", recipient the issuer id): an ECDSA P-256/SHA-256
signature of the intermediate signing key by a root key of KEYS_FILE (Google's published format) over the
length-prefixed sender, protocol version and signed key, then the message's signature by the intermediate key over the
length-prefixed sender, recipient, protocol version and signed message (each length 4 bytes, little-endian). Prints
the signed message on standard output; exit status 1, with the reason on standard error, when it does not verify.
"""
import base64
import json
import struct
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_der_public_key

SENDER = "GooglePayPasses"
VERSION = "ECv2SigningOnly"


def prefixed(*parts: str) -> bytes:
    return b"".join(struct.pack("<I", len(part.encode())) + part.encode() for part in parts)


def verifies(key, signature_b64: str, data: bytes) -> bool:
    try:
        key.verify(base64.b64decode(signature_b64), data, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def main() -> int:
    body_file, keys_file, issuer = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(body_file, "rb") as handle:
        message = json.load(handle)
    with open(keys_file, "rb") as handle:
        roots = [
            load_der_public_key(base64.b64decode(key["keyValue"]))
            for key in json.load(handle)["keys"]
            if key.get("protocolVersion") == VERSION
        ]
    if message.get("protocolVersion") != VERSION:
        print("not ECv2SigningOnly", file=sys.stderr)
        return 1
    intermediate = message["intermediateSigningKey"]
    signed_key = intermediate["signedKey"]
    key_data = prefixed(SENDER, VERSION, signed_key)
    if not any(verifies(root, signature, key_data) for root in roots for signature in intermediate["signatures"]):
        print("no root key signed the intermediate key", file=sys.stderr)
        return 1
    key = load_der_public_key(base64.b64decode(json.loads(signed_key)["keyValue"]))
    if not verifies(key, message["signature"], prefixed(SENDER, issuer, VERSION, message["signedMessage"])):
        print("the message's signature does not verify", file=sys.stderr)
        return 1
    print(message["signedMessage"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
