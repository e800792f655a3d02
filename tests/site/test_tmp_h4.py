import re

from tests.site.test_one_language import *  # noqa: F403
from tests.site.test_one_language import demo  # noqa: F401


def test_dump(demo) -> None:  # noqa: F811
    for key in ("eleora", "magus"):
        campaign = Campaign.objects.get(ruleset=key)  # noqa: F405
        enc = campaign.encounters.first()
        play(enc, 8)  # noqa: F405
        for who in ("gracz1", "mistrz"):
            page = client_for(who, "en").get(f"/encounters/{enc.pk}/").content.decode()  # noqa: F405
            open(f"/tmp/h4/{key}-{who}-table.txt", "w").write(
                re.sub(r"\s+", " ", visible_text(page))
            )  # noqa: F405
