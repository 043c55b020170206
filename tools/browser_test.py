"""Browser test of the page `xq serve` serves: judging records (pasted or chosen as a file),
stepping through them with the buttons and the move list, playing the engine, the page in Chinese,
and a 400 px window and a phone, in headless Chromium driven through WebDriver (Selenium and
chromedriver).

Usage: browser_test.py [PATH_TO_XQ]   (default: $CARGO_TARGET_DIR/release/xq or target/release/xq)

Starts `xq serve --port 0`, runs the checks, saves screenshots to target/browser/ and stops the
server with SIGTERM, which must end it with status 0. Exits non-zero on the first failure.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, "target", "browser")
SCREENSHOTS = ("empty.png", "hint.png", "check.png", "ruling.png", "movelist.png", "cleared.png", "play.png",
               "chinese.png", "narrow.png", "phone.png")

# WXF case 3 (manual diagram 1): Red's rook checks from h9 and h8 in turn; Black wins.
CHECK_RECORD = """[Event "perpetual check"]
[FEN "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1"]

1. h8h9 f9f8 2. h9h8 f8f9 3. h8h9 f9f8 4. h9h8
"""

# WXF case 119 (manual diagram 80): Red's rook chases Black's cannon between a0 and b0.
CHASE_RECORD = """[Event "perpetual chase"]
[FEN "3rkabc1/4a3R/4b4/9/9/9/9/B8/1R2A4/c1BAK4 w - - 0 1"]

1. b1a1 a0b0 2. a1b1 b0a0 3. b1a1 a0b0 4. a1b1
"""


class Failure(Exception):
    """A check that did not hold."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def find_xq():
    if len(sys.argv) > 1:
        return sys.argv[1]
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    return os.path.join(target, "release", "xq")


def start_server(xq):
    """Starts `xq serve --port 0` and returns (process, base URL) from its first stdout line."""
    check(os.access(xq, os.X_OK), f"no executable xq at {xq} (build it with cargo build --release)")
    proc = subprocess.Popen([xq, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    first = []
    reader = threading.Thread(target=lambda: first.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(15)
    line = first[0] if first else ""
    match = re.match(r"xq serve: listening on (http://\S+/)\s*$", line)
    if not match:
        proc.kill()
        proc.wait()
        raise Failure(f"xq serve did not announce its address within 15 s (first line: {line!r})")
    return proc, match.group(1)


def referee_api(url, record, repetitions, extra=""):
    """What /api/referee answers for the record: the page must show the same."""
    request = urllib.request.Request(
        f"{url}api/referee?repetitions={repetitions}{extra}", data=record.encode(), method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)[0]


def get_status(url):
    """The status of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("Content-Type")
    except urllib.error.HTTPError as e:
        return e.code, None


def shown(driver, selector):
    """Whether an element is on the page and displayed."""
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return bool(found) and found[0].is_displayed()


def move_list(driver):
    """The move list's texts, and the ply of the move marked current (None when none is).

    Read in one script: the page redraws the list when the notation or the ply changes, and
    elements found one call before may already be gone."""
    texts, current = driver.execute_script(
        "const mvs = [...document.querySelectorAll('#movelist .mv')];"
        "const cur = document.querySelector('#movelist .mv.current');"
        "return [mvs.map(e => e.innerText), cur ? cur.getAttribute('data-ply') : null];"
    )
    return texts, (int(current) if current is not None else None)


def check_fits(driver, what):
    """Nothing is cut off or scrolls sideways: the page is no wider than the window, the board
    ends inside it and every piece on file i is inside it."""
    width = driver.execute_script("return document.documentElement.clientWidth")
    page = driver.execute_script("return document.documentElement.scrollWidth")
    check(page <= width, f"{what}: the page is {page} px wide in a window showing {width} px")
    board = driver.execute_script("return document.getElementById('svgboard').getBoundingClientRect().right")
    check(board <= width, f"{what}: the board ends at {board} px in a {width} px window")
    files_i = driver.find_elements(By.CSS_SELECTOR, '#svgboard g.piece[data-square^="i"]')
    check(files_i, f"{what}: no piece on file i to look at")
    for g in files_i:
        right = driver.execute_script("return arguments[0].getBoundingClientRect().right", g)
        check(0 < right <= width, f"{what}: the piece on {g.get_attribute('data-square')} ends at {right} px")
    return width, page, board, len(files_i)


def start_browser():
    chromedriver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1000", "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver path: Selenium Manager is not asked to download anything.
    return webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)


def text_of(driver, selector):
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return found[0].text if found else None


def wait_for(driver, what, condition, timeout=20):
    try:
        # An element redrawn between finding and reading it is asked for again at the next poll.
        return WebDriverWait(driver, timeout, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition(d))
    except TimeoutException:
        raise Failure(
            f"timed out after {timeout} s waiting for {what} "
            f"(#plyinfo {text_of(driver, '#plyinfo')!r}, #status {text_of(driver, '#status')!r}, "
            f"#verdict {text_of(driver, '#verdict')!r})"
        ) from None


def pieces(driver):
    """The pieces on the board: square -> tooltip ("red cannon on h2"), read in one script
    because the board is drawn again after every step."""
    return dict(driver.execute_script(
        "return [...document.querySelectorAll('#svgboard g.piece')].map(g => "
        "[g.getAttribute('data-square'), g.querySelector('title').textContent]);"
    ))


def texts_of(driver, selector):
    """The texts of the elements a selector finds, read in one script."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.innerText);", selector)


def chased_marks(driver):
    return sorted(driver.execute_script(
        "return [...document.querySelectorAll('#svgboard circle.chased')]"
        ".map(c => c.getAttribute('data-square'));"
    ))


def plyinfo(driver):
    return driver.find_element(By.ID, "plyinfo").text


def click(driver, selector, index=0):
    """Clicks the index-th element a selector finds. The board, the move list and the verdict are
    drawn again when an answer from the server arrives, which may fall between finding an element
    and clicking it: then it is found afresh, a few times at most."""
    for _ in range(4):
        try:
            driver.find_elements(By.CSS_SELECTOR, selector)[index].click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    driver.find_elements(By.CSS_SELECTOR, selector)[index].click()


def click_square(driver, square):
    click(driver, f'#svgboard rect.hit[data-square="{square}"]')


def judge(driver, record, repetitions):
    """Pastes the record, picks the repetition count, clicks Judge and waits for the ruling."""
    area = driver.find_element(By.ID, "record")
    area.clear()
    area.send_keys(record)
    check(area.get_attribute("value").strip() == record.strip(), "the record did not land in the text area")
    Select(driver.find_element(By.ID, "repetitions")).select_by_visible_text(str(repetitions))
    driver.execute_script("document.getElementById('verdict').textContent = '';")
    driver.find_element(By.ID, "judge").click()
    wait_for(driver, "the ruling", lambda d: d.find_elements(By.ID, "ruling") or d.find_elements(By.CSS_SELECTOR, "#verdict .error"))
    error = text_of(driver, "#verdict .error")
    check(error is None, f"the page shows an error instead of a ruling: {error}")
    return driver.find_element(By.ID, "ruling").text


def check_ruling(driver, url, record, expected_words):
    """Judges the record with 3 repetitions and, if that gives no ruling, with 2; checks the page
    against the API's answer. Returns the API's answer."""
    for repetitions in (3, 2):
        ruling = judge(driver, record, repetitions)
        if not ruling.startswith("No ruling"):
            break
        print(f"  repetitions {repetitions}: {ruling!r}; trying 2")
    api = referee_api(url, record, repetitions)
    print(f"  repetitions {repetitions}: {ruling!r}")
    for words in expected_words:
        check(words in ruling, f"the ruling {ruling!r} does not say {words!r}")
    check(api["ply"] is not None and f"at ply {api['ply']}" in ruling,
          f"the ruling {ruling!r} does not name the API's ply {api['ply']}")
    rule = text_of(driver, "#rule")
    check(rule and api["rule"] and rule == api["rule"], f"#rule shows {rule!r}, the API cites {api['rule']!r}")
    check("WXF rule" in rule, f"#rule {rule!r} cites no WXF rule")
    print(f"  rule: {rule}")
    explanation = text_of(driver, "#explanation")
    check(explanation and explanation.strip() == api["explanation"].strip(),
          "#explanation differs from the API's explanation")
    total = len(api["moves"])
    info = plyinfo(driver)
    check(info.startswith(f"ply {api['ply']} of {total}"),
          f"the board is not at the ruled ply {api['ply']} of {total}: #plyinfo says {info!r}")
    red_first = api["start_fen"].split()[1] in ("w", "r")
    side = "Red" if red_first == (api["ply"] % 2 == 0) else "Black"
    wait_for(driver, f"#status '{side} to move' at the ruled ply",
             lambda d: (text_of(d, "#status") or "").startswith(f"{side} to move"), 10)
    return api


def check_pieces_match(driver, url, api, ply):
    """The board at `ply` holds the pieces the API's position after those moves holds."""
    request = urllib.request.Request(
        f"{url}api/legal",
        data=json.dumps({"fen": api["start_fen"], "moves": api["moves"][:ply]}).encode(),
        headers={"Content-Type": "application/json"}, method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        fen = json.load(response)["fen"]
    squares = set()
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                squares.add("abcdefghi"[f] + str(9 - r))
                f += 1
    shown = set(pieces(driver))
    check(shown == squares, f"at ply {ply} the board shows pieces on {sorted(shown ^ squares)} wrongly")


def check_marks(driver, api):
    """The chased pieces the API names are marked where they stand at the ruled ply, and nothing
    else is. Returns the marked squares."""
    want = sorted({c["squares"][-1] for c in api["chased"] if c["squares"]})
    marks = chased_marks(driver)
    check(marks == want, f"chased marks on {marks}, the API names {want}")
    board = pieces(driver)
    for square in marks:
        check(square in board, f"the chased mark on {square} marks no piece at ply {api['ply']}")
    whys = texts_of(driver, "#verdict .why")
    for cycle in api["cycles"]:
        for u in cycle.get("unprotected", []):
            line = f"ply {u['ply']}: {u['why']}"
            check(line in whys, f"no .why line {line!r} (shown: {whys})")
    return want


def step_through(driver, url, api):
    total = len(api["moves"])
    ruled = api["ply"]
    red_first = api["start_fen"].split()[1] in ("w", "r")
    steps = [
        ("first", 0), ("next", 1), ("next", 2), ("last", total), ("prev", total - 1),
        ("first", 0), ("prev", 0), ("last", total), ("next", total), ("first", 0), ("toruling", ruled),
    ]
    previous = plyinfo(driver)
    for button, ply in steps:
        driver.find_element(By.ID, button).click()
        want = f"ply {ply} of {total}" + (f" ({api['moves'][ply - 1]})" if ply else "")
        wait_for(driver, f"#plyinfo {want!r} after #{button}", lambda d: plyinfo(d) == want, 5)
        check_pieces_match(driver, url, api, ply)
        side = "Red" if red_first == (ply % 2 == 0) else "Black"
        wait_for(driver, f"#status '{side} to move' at ply {ply}",
                 lambda d: (text_of(d, "#status") or "").startswith(f"{side} to move"), 10)
        marks = chased_marks(driver)
        if ply != ruled:
            check(not marks, f"chased marks {marks} shown at ply {ply}, away from the ruled ply {ruled}")
        current = plyinfo(driver)
        print(f"  #{button:<8} -> {current}{'' if current != previous else ' (unchanged)'}")
        previous = current


def main():
    started = time.monotonic()
    os.makedirs(SHOTS, exist_ok=True)
    for name in SCREENSHOTS + ("failure.png",):
        if os.path.exists(os.path.join(SHOTS, name)):
            os.remove(os.path.join(SHOTS, name))
    xq = find_xq()
    try:
        server, url = start_server(xq)
    except (Failure, OSError) as e:
        print(f"browser test FAILED: {e}", file=sys.stderr)
        return 1
    print(f"xq serve at {url} (pid {server.pid})")
    driver = None
    try:
        driver = start_browser()
        print(f"browser: Chromium {driver.capabilities.get('browserVersion')}, "
              f"chromedriver {driver.capabilities.get('chrome', {}).get('chromedriverVersion', '?').split()[0]}")

        # a. The page and the start position.
        driver.get(url)
        check("xq" in driver.title and "referee" in driver.title, f"unexpected title {driver.title!r}")
        wait_for(driver, "32 pieces on the board", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#svgboard g.piece")) == 32)
        wait_for(driver, "'Red to move'", lambda d: text_of(d, "#status") == "Red to move")
        print(f"page loaded: {driver.title!r}, 32 pieces, {text_of(driver, '#status')!r}")

        # Nothing shown that has nothing to show yet; the icon.
        for selector in ("#games", "#toruling", "#moves", "#hint"):
            check(not shown(driver, selector), f"{selector} is shown on the empty page")
        check(driver.execute_script("return document.getElementById('verdict').offsetHeight") == 0,
              "the verdict takes room on the empty page")
        icon = driver.execute_script("return document.querySelector('link[rel=icon]').href")
        for address in (icon, f"{url}favicon.ico"):
            status, kind = get_status(address)
            check(status == 200 and kind == "image/svg+xml", f"{address}: {status} {kind}")
        print(f"empty page: no game list, ruled-position button, move list or verdict; icon {icon} 200")
        driver.save_screenshot(os.path.join(SHOTS, "empty.png"))

        # With 3 repetitions WXF case 3 gets no ruling; the page says what 2 would rule, and its
        # button judges again with 2.
        print("no ruling with 3 repetitions, one with 2:")
        ruling = judge(driver, CHECK_RECORD, 3)
        check(ruling.startswith("No ruling"), f"case 3 with 3 repetitions: {ruling!r}")
        fewer = referee_api(url, CHECK_RECORD, 3, "&fewer_repetitions=2")["with_fewer_repetitions"]
        check(fewer and fewer["repetitions"] == 2, f"the API gives no ruling with 2 repetitions: {fewer}")
        hint = text_of(driver, "#hint") or ""
        check(hint.startswith("With 2 repetitions (the WXF case suite's count) this game would be ruled: ")
              and fewer["headline"] in hint, f"#hint {hint!r}, the API's ruling with 2 {fewer['headline']!r}")
        check(not shown(driver, "#toruling"), "#toruling is shown without a ruling")
        check(not shown(driver, "#games"), "the list of games is shown for one game")
        print(f"  {hint}")
        driver.save_screenshot(os.path.join(SHOTS, "hint.png"))
        click(driver, "#rejudge")
        wait_for(driver, "the ruling with 2", lambda d: (text_of(d, "#ruling") or "").startswith(fewer["headline"]))
        check(Select(driver.find_element(By.ID, "repetitions")).first_selected_option.text == "2",
              "the repetition count is not 2 after judging again with 2")
        check(shown(driver, "#toruling") and not shown(driver, "#hint"), "after the ruling: #toruling hidden or #hint shown")
        print(f"  judged again with 2: {text_of(driver, '#ruling')!r}")

        # Two games: the list of games is shown and picks the game.
        judge(driver, CHECK_RECORD + "\n" + CHASE_RECORD, 2)
        check(shown(driver, "#games"), "the list of games is hidden for two games")
        Select(driver.find_element(By.ID, "game")).select_by_index(1)
        wait_for(driver, "the second game's ruling", lambda d: "chase" in (text_of(d, "#ruling") or ""))
        print(f"  two games: the list shows {len(Select(driver.find_element(By.ID, 'game')).options)}, "
              f"the second {text_of(driver, '#ruling')!r}")

        # b. A perpetual check.
        print("perpetual check (WXF case 3):")
        check_api = check_ruling(driver, url, CHECK_RECORD, ["Black wins", "perpetual check"])
        check(check_api.get("violator") == "red", f"the API names {check_api['violator']!r} as the violator")
        check_marks(driver, check_api)
        driver.save_screenshot(os.path.join(SHOTS, "check.png"))

        # b. A perpetual chase, its chased piece marked and why it counts as unprotected.
        print("perpetual chase (WXF case 119):")
        chase_api = check_ruling(driver, url, CHASE_RECORD, ["Black wins", "chase"])
        want = check_marks(driver, chase_api)
        check(want, "the API names no chased piece")
        board = pieces(driver)
        for square in want:
            check(board[square].startswith("black"), f"the chased piece on {square} is {board[square]!r}")
        print(f"  chased: {', '.join(board[s] for s in want)}")
        whys = texts_of(driver, "#verdict .why")
        check(any("black cannon" in w for w in whys),
              f"no .why line explains why the chased black cannon is unprotected: {whys}")
        for w in whys:
            print(f"  why: {w}")
        driver.save_screenshot(os.path.join(SHOTS, "ruling.png"))

        # c. Stepping through the moves.
        print("stepping:")
        step_through(driver, url, chase_api)
        check(chased_marks(driver) == want, "the chased marks did not come back at the ruled position")

        # The move list: the ruled ply marked, a click goes to its ply, the notation chosen.
        print("move list:")
        texts, current = move_list(driver)
        check(texts == chase_api["moves"] and current == chase_api["ply"],
              f"the move list {texts} (current {current}), the API's moves {chase_api['moves']} at {chase_api['ply']}")
        click(driver, "#movelist .mv", 2)
        wait_for(driver, "ply 3 after a click on the third move", lambda d: plyinfo(d).startswith("ply 3 of 7"), 5)
        check(move_list(driver)[1] == 3, f"the current move is {move_list(driver)[1]} after a click on the third")
        check_pieces_match(driver, url, chase_api, 3)
        for notation in ("wxf", "chinese"):
            want_texts = referee_api(url, CHASE_RECORD, 2, f"&notation={notation}")["move_list"]
            Select(driver.find_element(By.ID, "notation")).select_by_value(notation)
            wait_for(driver, f"the moves in {notation}", lambda d: move_list(d)[0] == want_texts, 10)
            check(f"({want_texts[2]})" in plyinfo(driver), f"#plyinfo {plyinfo(driver)!r} in {notation}")
            print(f"  {notation}: {' '.join(want_texts)}; {plyinfo(driver)!r}")
            if notation == "wxf":
                driver.save_screenshot(os.path.join(SHOTS, "movelist.png"))
        Select(driver.find_element(By.ID, "notation")).select_by_value("iccs")
        wait_for(driver, "the moves in ICCS", lambda d: move_list(d)[0] == chase_api["moves"], 10)

        # Playing on from the judged record clears it: the ruling, the marks, the ruled position.
        driver.find_element(By.ID, "toruling").click()
        wait_for(driver, "the ruled position", lambda d: chased_marks(d) == want, 5)
        driver.find_element(By.ID, "autoplay").click()
        request = urllib.request.Request(
            f"{url}api/legal", data=json.dumps({"fen": chase_api["start_fen"], "moves": chase_api["moves"][:chase_api["ply"]]}).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            move = json.load(response)["legal_moves"][0]
        ply = chase_api["ply"] + 1
        wait_for(driver, "the legal moves", lambda d: text_of(d, "#status"), 5)
        click_square(driver, move[:2])
        click_square(driver, move[2:])
        wait_for(driver, f"{move} played", lambda d: plyinfo(d).startswith(f"ply {ply} of {ply}"), 10)
        check(not driver.find_elements(By.ID, "ruling") and not text_of(driver, "#verdict"),
              f"the verdict stays after playing: {text_of(driver, '#verdict')!r}")
        check(not chased_marks(driver), "the chased marks stay after playing")
        for selector in ("#games", "#toruling"):
            check(not shown(driver, selector), f"{selector} stays after playing")
        driver.find_element(By.ID, "autoplay").click()
        print(f"  played {move} at the ruled position: verdict, marks and ruled position gone; {plyinfo(driver)!r}")
        driver.save_screenshot(os.path.join(SHOTS, "cleared.png"))

        # d. Playing the engine from the start position.
        print("playing:")
        driver.find_element(By.ID, "fen").clear()
        driver.find_element(By.ID, "setup").click()
        wait_for(driver, "the start position", lambda d: plyinfo(d) == "ply 0 of 0" and len(pieces(d)) == 32)
        wait_for(driver, "'Red to move'", lambda d: text_of(d, "#status") == "Red to move")
        check(driver.find_element(By.ID, "autoplay").is_selected(), "#autoplay is not checked by default")
        Select(driver.find_element(By.ID, "movetime")).select_by_value("300")
        before = pieces(driver)
        click_square(driver, "h2")
        wait_for(driver, "h2 selected", lambda d: d.find_elements(By.CSS_SELECTOR, '#svgboard g.piece[data-square="h2"]'), 5)
        click_square(driver, "e2")
        wait_for(driver, "the engine's reply (ply 2 of 2)", lambda d: plyinfo(d).startswith("ply 2 of 2"), 30)
        after = pieces(driver)
        check(after.get("e2") == "red cannon on e2" and "h2" not in after,
              f"the red cannon did not go h2-e2 (e2: {after.get('e2')!r}, h2: {after.get('h2')!r})")
        black_before = {s for s, t in before.items() if t.startswith("black")}
        black_after = {s for s, t in after.items() if t.startswith("black")}
        check(black_before != black_after and len(black_after) == 16,
              f"no black piece moved (black squares {sorted(black_after)})")
        reply = re.search(r"\((\w+)\)", plyinfo(driver)).group(1)
        wait_for(driver, "'Red to move' after the reply", lambda d: text_of(d, "#status") == "Red to move", 10)
        print(f"  h2e2, the engine replied {reply}: {sorted(black_before - black_after)} -> "
              f"{sorted(black_after - black_before)}; {plyinfo(driver)!r}, {text_of(driver, '#status')!r}")

        # Taking the reply back and choosing Black's move instead: the engine answers for Red.
        driver.find_element(By.ID, "prev").click()
        wait_for(driver, "ply 1 after #prev", lambda d: plyinfo(d).startswith("ply 1 of 2"), 5)
        wait_for(driver, "'Black to move' after #prev", lambda d: text_of(d, "#status") == "Black to move", 10)
        source, dest = ("h9", "g7") if reply != "h9g7" else ("b9", "c7")
        click_square(driver, source)
        click_square(driver, dest)
        wait_for(driver, f"{source}{dest} and the engine's reply (ply 3 of 3)",
                 lambda d: plyinfo(d).startswith("ply 3 of 3"), 30)
        after = pieces(driver)
        check(after.get(dest) == f"black horse on {dest}" and source not in after,
              f"the black horse did not go {source}-{dest} (board: {after})")
        wait_for(driver, "'Black to move' after Red's reply", lambda d: text_of(d, "#status") == "Black to move", 10)
        print(f"  back to ply 1, {source}{dest} instead, the engine replied: {plyinfo(driver)!r}, "
              f"{text_of(driver, '#status')!r}")
        driver.save_screenshot(os.path.join(SHOTS, "play.png"))

        # e. The page in Chinese, chosen with its switch, judging a file picked with its chooser.
        print("in Chinese:")
        Select(driver.find_element(By.ID, "lang")).select_by_value("zh-Hans")
        wait_for(driver, "the page in zh-Hans",
                 lambda d: d.execute_script("return document.documentElement.lang") == "zh-Hans")
        wait_for(driver, "32 pieces on the board", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#svgboard g.piece")) == 32)
        record_file = os.path.join(SHOTS, "case119.pgn")
        with open(record_file, "w", encoding="utf-8") as f:
            f.write(CHASE_RECORD)
        Select(driver.find_element(By.ID, "repetitions")).select_by_visible_text("2")
        driver.execute_script("document.getElementById('verdict').textContent = '';")
        driver.find_element(By.ID, "file").send_keys(os.path.abspath(record_file))
        wait_for(driver, "the ruling of the chosen file", lambda d: d.find_elements(By.ID, "ruling"))
        ruling = driver.find_element(By.ID, "ruling").text
        check("黑方胜" in ruling, f"the ruling is not in Chinese: {ruling!r}")
        print(f"  switched to zh-Hans, chose case119.pgn: {ruling!r}")
        # The labels are Chinese; only the names of notations and formats are not.
        labels = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "h1, h2, #intro, label, button")]
        labels += [e.get_attribute("title") for e in driver.find_elements(By.CSS_SELECTOR, "button[title]")]
        labels += [driver.find_element(By.ID, "fen").get_attribute("placeholder"), driver.title]
        labels += [o.text for o in driver.find_elements(By.CSS_SELECTOR, "#skill option, #movetime option, #notation option")]
        english = sorted({w for text in labels for w in re.findall(r"[A-Za-z]{2,}", text)}
                         - {"xq", "language", "English", "FEN", "ICCS", "WXF"})
        check(not english, f"English on the Chinese page: {english}")
        mv = move_list(driver)[0]
        check(mv and all(re.search(r"[\u4e00-\u9fff]", t) for t in mv), f"the moves are not in Chinese: {mv}")
        print(f"  {len(labels)} labels in Chinese; moves {' '.join(mv)}")
        driver.save_screenshot(os.path.join(SHOTS, "chinese.png"))

        # A 400 px window and a phone: the board scales to the width, the panels stack, nothing
        # is cut off (the pieces on file i are inside the window).
        print("narrow:")
        driver.get(f"{url}?lang=en")
        driver.set_window_size(400, 1000)
        wait_for(driver, "32 pieces on the board", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#svgboard g.piece")) == 32)
        width = driver.execute_script("return window.innerWidth")
        check(width <= 400, f"the window is {width} px wide, not 400")
        fits = check_fits(driver, "the start position")
        print(f"  start position: {width} px window showing {fits[0]}, page {fits[1]}, board to {fits[2]:.0f} px, "
              f"pieces on file i inside: {fits[3]}")
        judge(driver, CHASE_RECORD, 2)
        fits = check_fits(driver, "a ruling")
        print(f"  a ruling: page {fits[1]} px wide, board to {fits[2]:.0f} px, pieces on file i inside: {fits[3]}")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(SHOTS, "narrow.png"))
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True})
        driver.get(f"{url}?lang=zh-Hans")
        wait_for(driver, "32 pieces on the board", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#svgboard g.piece")) == 32)
        judge(driver, CHASE_RECORD, 2)
        fits = check_fits(driver, "a phone")
        print(f"  a phone (360 px, mobile): page {fits[1]} px wide, board to {fits[2]:.0f} px")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(SHOTS, "phone.png"))
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"the browser's console shows errors: {errors}")
    except Exception as e:  # noqa: BLE001 - every failure ends the run with a message
        if driver is not None:
            try:
                driver.save_screenshot(os.path.join(SHOTS, "failure.png"))
                print(f"screenshot of the failure: {os.path.join(SHOTS, 'failure.png')}", file=sys.stderr)
            except WebDriverException:
                pass
        kind = "" if isinstance(e, Failure) else f"{type(e).__name__}: "
        print(f"browser test FAILED: {kind}{e}", file=sys.stderr)
        failed = True
    else:
        failed = False
    finally:
        if driver is not None:
            driver.quit()
    if failed:
        server.kill()
        server.wait()
        return 1

    # f. A graceful stop.
    server.send_signal(signal.SIGTERM)
    try:
        status = server.wait(5)
    except subprocess.TimeoutExpired:
        server.kill()
        print("browser test FAILED: xq serve did not stop within 5 s of SIGTERM", file=sys.stderr)
        return 1
    if status != 0:
        print(f"browser test FAILED: xq serve exited with status {status} on SIGTERM", file=sys.stderr)
        return 1
    print("xq serve stopped on SIGTERM with status 0")
    print(f"screenshots: {', '.join(os.path.join(SHOTS, n) for n in SCREENSHOTS)}")
    print(f"browser test passed in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
