"""The docs that must not drift from the code: the env manual and the README's links."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_environment_page_is_the_env_docstrings():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import gen_env_doc
    finally:
        sys.path.pop(0)
    import belote_env.env
    import belote_env.gym_env

    page = (ROOT / "docs" / "environment.md").read_text()
    assert page == gen_env_doc.render(), "docs/environment.md is stale: run python scripts/gen_env_doc.py"
    assert belote_env.env.__doc__.strip() in page and belote_env.gym_env.__doc__.strip() in page


def test_readme_links_exist_and_it_stays_short():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 160
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    assert "docs/environment.md" in links and "docs/results.md" in links
    for link in links:
        assert (ROOT / link).exists(), link
