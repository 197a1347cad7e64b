#!/usr/bin/env python3
"""Checks a Google Wallet save link with PyJWT, independently of Passmint.

Usage: check_save_link.py LINK PUBLIC_KEY_PEM
Verifies the RS256 signature with the service account's public key and the audience "google", then prints the
claims as JSON on standard output. Exit status 1, with the reason on standard error, when the link is not valid.
"""
import json
import sys

import jwt

PREFIX = "https://pay.google.com/gp/v/save/"


def main() -> int:
    link, key_file = sys.argv[1], sys.argv[2]
    if not link.startswith(PREFIX):
        print(f"not a save link: {link[:60]}", file=sys.stderr)
        return 1
    with open(key_file, "rb") as handle:
        public_key = handle.read()
    token = link[len(PREFIX):]
    try:
        header = jwt.get_unverified_header(token)
        claims = jwt.decode(token, public_key, algorithms=["RS256"], audience="google")
    except jwt.PyJWTError as error:
        print(f"invalid save link: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"header": header, "claims": claims, "length": len(link)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
