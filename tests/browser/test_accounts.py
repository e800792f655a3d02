"""People the site can reach (issue #25), in real browsers, with the server's mails received
by a real SMTP server (tests/smtp.py) and their links followed:

1. a new player signs up from an invite with an address, confirms it from the mail, joins the
   by-post campaign; the GM gives them a character and opens a by-post turn; the player gets
   the "your move" mail and posts from its link;
2. another player, who forgot their password, resets it from the login page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import DEMO_PASSWORD, PHONE, _server_shell, sign_in
from tests.browser.test_live_table import DESKTOP
from tests.smtp import SmtpServer

pytestmark = pytest.mark.browser

CAMPAIGN = "Listy z pogranicza"
ENCOUNTER = "Przełęcz przez posty"
HERO = "Wędrowiec"
NPC = "Przemytnik"
NEWCOMER = "wedrowiec"
NEWCOMER_MAIL = "wedrowiec@eleora.test"
NEWCOMER_PASSWORD = "ciemna-przelecz-42"
FORGETFUL = "zapominalski"
FORGETFUL_MAIL = "zapominalski@eleora.test"


def seed_border() -> None:
    """Run inside the server's `manage.py shell`: a d100 campaign of the demo's GM with a hero
    nobody plays yet, a smuggler, and an encounter nobody is seated at; a player with a
    confirmed address who will forget their password. Prints the ids as JSON."""
    from django.contrib.auth.models import User

    from characters import account
    from characters import services as characters_services
    from characters.models import Character
    from characters.sheets import clean_sheet
    from combat import services as combat_services
    from tests.browser.conftest import D100_SHEETS

    master = User.objects.get(username="mistrz")
    campaign = characters_services.create_campaign(
        gm=master, name=CAMPAIGN, description="Przemyt na przełęczy.", ruleset="d100"
    )
    rules = campaign.rules()
    ids = {"campaign": campaign.pk}
    for name, sheet, kind in (
        (HERO, D100_SHEETS["Dobrogost Miecznik"], Character.Kind.PC),
        (NPC, D100_SHEETS["Zbój z Lasu"], Character.Kind.NPC),
    ):
        clean = clean_sheet(sheet, rules=rules, settings=campaign.settings)
        made = Character.objects.create(campaign=campaign, name=name, kind=kind, sheet=clean)
        ids[name] = made.pk
    encounter = combat_services.create_encounter(campaign=campaign, name=ENCOUNTER, by=master)
    ids["encounter"] = encounter.pk
    forgetful = User.objects.create_user(username=FORGETFUL, password=DEMO_PASSWORD)
    account.mark_confirmed(forgetful, FORGETFUL_MAIL)
    print(json.dumps({**ids, "code": campaign.invite_code}))  # noqa: T201 - the test reads it


@pytest.fixture(scope="module")
def border(live_url: str, server_tmp: Path) -> dict[str, int]:
    return _server_shell(
        server_tmp, "from tests.browser.test_accounts import seed_border; seed_border()"
    )


def test_a_new_player_signs_up_confirms_joins_and_posts_from_the_turns_mail(
    live_url: str,
    border: dict[str, Any],
    smtp_server: SmtpServer,
    new_context: Callable[..., BrowserContext],
) -> None:
    player = new_context(**PHONE).new_page()

    # From the invite link: no account yet, so to the sign-in page, and on to sign up.
    player.goto(f"{live_url}/join/{border['code']}/")
    expect(player).to_have_url(re.compile(r"/accounts/login/\?next="))
    player.locator("main").get_by_role("link", name="Załóż je").click()
    player.fill("#id_username", NEWCOMER)
    player.fill("#id_email", NEWCOMER_MAIL)
    player.fill("#id_password1", NEWCOMER_PASSWORD)
    player.fill("#id_password2", NEWCOMER_PASSWORD)
    player.locator("main").get_by_role("button", name="Załóż konto").click()
    expect(player.locator("main")).to_contain_text(CAMPAIGN)  # back at the invite
    player.get_by_role("button", name="Dołącz jako gracz").click()
    expect(player.locator(".messages")).to_contain_text(f"Dołączono do kampanii „{CAMPAIGN}”")

    # The GM's campaign page marks the newcomer: no mail reaches them yet.
    gm = new_context(**DESKTOP).new_page()
    sign_in(gm, live_url, "mistrz")
    gm.goto(f"{live_url}/campaigns/{border['campaign']}/")
    newcomer_row = gm.locator("li", has_text=NEWCOMER)
    expect(newcomer_row.locator(".unreachable")).to_contain_text("brak potwierdzonego e-maila")
    gm.screenshot(path="build/screenshots/campaign-unreachable.png", full_page=True)

    # The address is confirmed from the mail's link (a button: a mail reader's preview of the
    # link confirms nothing).
    (confirmation,) = smtp_server.wait(1, to=NEWCOMER_MAIL)
    assert confirmation.subject == "Eleora: potwierdź adres e-mail"
    player.goto(confirmation.link("/account/confirm/"))
    expect(player.locator("main")).to_contain_text(NEWCOMER_MAIL)
    player.get_by_role("button", name="Potwierdź adres").click()
    expect(player.locator(".messages")).to_contain_text(f"Adres {NEWCOMER_MAIL} jest potwierdzony")
    player.screenshot(path="build/screenshots/account-confirmed-phone.png", full_page=True)

    gm.reload()
    expect(newcomer_row).to_have_count(1)
    expect(newcomer_row.locator(".unreachable")).to_have_count(0)

    # The GM gives the newcomer the hero, seats it with the smuggler, and opens a by-post turn.
    gm.goto(f"{live_url}/characters/{border[HERO]}/edit/")
    gm.get_by_label("Gracz").select_option(label=NEWCOMER)
    gm.get_by_role("button", name="Zapisz postać").click()
    gm.goto(f"{live_url}/encounters/{border['encounter']}/")
    gm.wait_for_function("() => window.eleoraSwaps.length > 0")
    panel = gm.locator("#table-gm")
    panel.get_by_label(HERO).check()
    panel.get_by_label(NPC).check()
    panel.get_by_role("button", name="Dodaj", exact=True).click()
    expect(gm.locator("#table-order .combatant")).to_have_count(2)
    panel.get_by_role("button", name="Tempo: przez posty").click()
    expect(panel).to_contain_text("Tempo walki: przez posty")
    panel.get_by_role("button", name="Rozpocznij walkę").click()
    expect(gm.locator("#table-status")).to_contain_text("Tura bojowa 1")

    # The newcomer is mailed; the mail's link opens the table, where they post.
    mails = smtp_server.wait(2, to=NEWCOMER_MAIL)
    turn = mails[-1]
    assert turn.subject == f"Twój ruch: {ENCOUNTER} (Tura bojowa 1)", turn
    assert HERO in turn.body
    player.goto(turn.link("/encounters/"))
    # The socket's first push replaces every region, the form too: type after it.
    player.wait_for_function("() => window.eleoraSwaps.length > 0")
    form = player.locator("#table-turn").get_by_role("form", name=f"Wpis: {HERO}")
    action = form.get_by_label("Akcja pełna")
    attack = action.locator("option", has_text=f"atak → {NPC}").first.get_attribute("value")
    action.select_option(value=attack)
    form.get_by_label("Opis (wpis fabularny)").fill("Wędrowiec skacze z głazu.")
    form.get_by_role("button", name="Wyślij wpis").tap()
    mine = player.locator("#table-turn .d100-mine")
    expect(mine).to_contain_text("Wędrowiec skacze z głazu.")
    expect(gm.locator(".d100-posts")).to_contain_text(f"{HERO} ✓")
    # The GM's page names nobody its mails miss: the newcomer confirmed their address.
    gm.reload()
    expect(gm.locator("#conn")).to_have_class(re.compile(r"\bconn-online\b"))
    expect(gm.locator(".unmailed")).to_have_count(0)
    player.screenshot(path="build/screenshots/by-post-from-mail-phone.png", full_page=True)


def test_a_player_who_forgot_their_password_resets_it_from_the_login_page(
    live_url: str,
    border: dict[str, Any],
    smtp_server: SmtpServer,
    new_context: Callable[..., BrowserContext],
) -> None:
    page: Page = new_context(**PHONE).new_page()
    page.goto(f"{live_url}/accounts/login/")
    page.locator("main").get_by_role("link", name="Nie pamiętasz hasła?").click()
    page.fill("#id_email", FORGETFUL_MAIL)
    page.screenshot(path="build/screenshots/password-reset-form-phone.png", full_page=True)
    page.locator("main").get_by_role("button", name="Wyślij link").click()
    expect(page.locator("main")).to_contain_text("Sprawdź skrzynkę")

    (mail,) = smtp_server.wait(1, to=FORGETFUL_MAIL)
    page.goto(mail.link("/accounts/reset/"))
    new_password = "nowe-haslo-z-przeleczy-7"
    page.fill("#id_new_password1", new_password)
    page.fill("#id_new_password2", new_password)
    page.screenshot(path="build/screenshots/password-reset-new-phone.png", full_page=True)
    page.locator("main").get_by_role("button", name="Ustaw hasło").click()
    page.locator("main").get_by_role("link", name="Zaloguj się").click()
    sign_in(page, live_url, FORGETFUL, new_password)
    expect(page.locator("header")).to_contain_text(FORGETFUL)
    page.screenshot(path="build/screenshots/password-reset-phone.png", full_page=True)
