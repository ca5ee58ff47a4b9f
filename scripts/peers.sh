# Installs the Python peers that scripts/benchmark --peers, scripts/benchmark-mcp --peers and scripts/accuracy
# compare healthetl with, each at an exact version from PyPI, into virtual environments under bench-data/ (ignored
# by git). Sourced, not run:
#
#   source scripts/peers.sh
#   peers_install            # sets peers_venv, and peers_venv_312 (empty when no Python >= 3.12 is found)
#   "$peers_venv/bin/healthkit-to-sqlite" …
#
# healthkit-to-sqlite and apple-health-export-mcp run on python3 (3.11 here); apple-health-mcp-server 0.6.1 needs
# Python >= 3.12, looked for on PATH and then under pyenv; where there is none, peers_venv_312 stays empty and
# peers_python_312_missing says why. apple-health-mcp-server 0.6.1 asks for `mcp>=1.0`, which pip resolves to mcp 2.x
# today, whose rename of FastMCP stops its server from starting ("No module named 'mcp.server.fastmcp'"): its
# venv pins mcp to the last 1.x release (its importer runs either way). The venvs are created once and reused
# (delete one to reinstall); pip output goes to stderr.

peers_healthkit_to_sqlite="healthkit-to-sqlite==1.0.1"
peers_apple_health_export_mcp="apple-health-export-mcp==0.1.1"
peers_apple_health_mcp_server="apple-health-mcp-server==0.6.1"
# The smallest change that lets apple-health-mcp-server 0.6.1's server start: mcp below 2 (the newest 1.x).
peers_apple_health_mcp_server_pin="mcp==1.30.0"

peers_venv=bench-data/peers-venv
peers_venv_312=""
peers_python_312=""
peers_python_312_missing=""

# Prints the interpreter (its real path, not a pyenv shim) of a Python >= 3.12, the oldest such first (3.12 is what
# apple-health-mcp-server 0.6.1 asks for): python3.12, python3.13, python3.14 or python3 on PATH, else pyenv's.
peers_find_python_312() {
    local candidate found
    local check='import sys; assert sys.version_info >= (3, 12); print(sys.executable)'
    for candidate in python3.12 python3.13 python3.14 python3; do
        if command -v "$candidate" >/dev/null 2>&1 && found=$("$candidate" -c "$check" 2>/dev/null); then
            echo "$found"
            return 0
        fi
    done
    local root
    root=$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")
    for candidate in $(ls -d "$root"/versions/3.1[2-9]* 2>/dev/null | sort -V); do
        if found=$("$candidate/bin/python3" -c "$check" 2>/dev/null); then
            echo "$found"
            return 0
        fi
    done
    return 1
}

# Creates $1 with python $2 and installs the remaining arguments into it, unless the venv's marker says that
# exactly these packages were installed with this python already.
peers_venv_with() {
    local venv="$1" python="$2"
    shift 2
    local marker="$venv/.healthetl-peers" wanted="$python $*"
    if [ -f "$marker" ] && [ "$(cat "$marker")" = "$wanted" ]; then return 0; fi
    rm -rf "$venv"
    echo "Installing $* into $venv ($python)…" >&2
    "$python" -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "$@" >&2
    echo "$wanted" >"$marker"
}

peers_install() {
    mkdir -p bench-data
    peers_venv_with "$peers_venv" python3 "$peers_healthkit_to_sqlite" "$peers_apple_health_export_mcp"
    if peers_python_312=$(peers_find_python_312); then
        peers_venv_312=bench-data/peers-venv-312
        peers_venv_with "$peers_venv_312" "$peers_python_312" "$peers_apple_health_mcp_server" \
            "$peers_apple_health_mcp_server_pin"
    else
        peers_python_312=""
        peers_python_312_missing="no Python >= 3.12 on PATH or under pyenv"
        echo "peers: $peers_python_312_missing: apple-health-mcp-server 0.6.1 skipped" >&2
    fi
}

# The same package without the pin, as a fresh `pip install` gives it today: only to show that its server does not
# start (scripts/accuracy records the error line). Sets peers_venv_312_unpinned, or leaves it empty.
peers_venv_312_unpinned=""
peers_install_unpinned() {
    [ -n "$peers_python_312" ] || return 0
    peers_venv_312_unpinned=bench-data/peers-venv-312-unpinned
    peers_venv_with "$peers_venv_312_unpinned" "$peers_python_312" "$peers_apple_health_mcp_server"
}
