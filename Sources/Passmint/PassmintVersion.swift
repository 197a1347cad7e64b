/// Passmint's version, written once: `passmint --version`, the service's start-up line, the README's package line and
/// the container image tags the manifests name (scripts/check-deploy.sh checks that they agree).
public enum PassmintVersion {
    public static let current = "0.1.0"
}
