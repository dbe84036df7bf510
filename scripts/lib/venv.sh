# Sourced by the scripts that keep a Python virtual environment in the cache (the model
# installer, the llama.cpp server, the MCP client): one way to make it on a fresh Debian
# machine.

# make_venv DIR PURPOSE: a new, empty virtual environment at DIR (what was there is
# removed). Installs Debian's python3-venv when python3 lacks the venv module and this
# runs as root with apt-get; otherwise says what is missing, naming PURPOSE, and exits.
make_venv() {
  local dir="$1" purpose="$2"
  if ! command -v python3 >/dev/null 2>&1; then
    echo "error: python3 is needed $purpose (apt-get install python3 python3-venv)" >&2
    exit 1
  fi
  if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "==> installing python3-venv (Debian package)" >&2
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >&2
    else
      echo "error: python3's venv module is needed $purpose (apt-get install python3-venv)" >&2
      exit 1
    fi
  fi
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  python3 -m venv "$dir"
}
