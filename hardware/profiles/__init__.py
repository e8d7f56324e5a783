"""Board profiles: the TOML files beside this module, one per board size.

A profile names the geometry, the sensor source and kind, the serial port or GPIO pin map,
the orientation and the LED chain. `load_profile("10x10")` loads a shipped one,
`load_profile("/path/to/my-board.toml")` a maker's own; errors say which field is wrong.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import ArbiterError
from hardware.firmware.matrix import ORIENTATIONS

PROFILE_DIR = Path(__file__).resolve().parent
SOURCES = ("serial", "gpio", "simulated")
KINDS = ("occupancy", "identifying")
LED_LAYOUTS = ("serpentine", "rows")


class ProfileError(ArbiterError, ValueError):
    """A board profile that cannot be used, with the reason."""

    code = "bad-profile"


@dataclass(frozen=True)
class BoardProfile:
    """Everything the referee needs to know about one physical board."""

    name: str
    width: int
    height: int
    variants: tuple[str, ...]
    orientation: str
    source: str
    sensor_kind: str
    serial_port: str
    baudrate: int
    scan_hz: int
    debounce_scans: int
    quiet_ms: int
    gpio_rows: tuple[int, ...]
    gpio_cols: tuple[int, ...]
    leds_enabled: bool
    led_pin: int | None
    led_layout: str
    path: str = ""
    # Espionage: do the sensors see a volcano marker (a magnet for reed switches)? None: unknown,
    # the referee learns what each volcano square reads at setup (firmware_bridge/board/recognition.py).
    volcano_markers_sensed: bool | None = None

    @property
    def identifying(self) -> bool:
        """True when each square reports which piece (tag) stands on it."""
        return self.sensor_kind == "identifying"


def shipped_profiles() -> list[str]:
    """Names of the profiles that ship with Arbiter."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def load_profile(name_or_path: str | Path) -> BoardProfile:
    """Load a shipped profile by name ("10x10") or any profile file by path."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = PROFILE_DIR / f"{name_or_path}.toml"
    if not path.is_file():
        raise ProfileError(f"no board profile {name_or_path!r} (shipped: {', '.join(shipped_profiles())})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ProfileError(f"{path}: not valid TOML: {error}") from None
    return parse_profile(data, str(path))


def profile_for_variant(variant_name: str) -> BoardProfile:
    """The shipped profile whose board the variant is played on."""
    for name in shipped_profiles():
        profile = load_profile(name)
        if variant_name in profile.variants:
            return profile
    raise ProfileError(f"no shipped board profile lists the variant {variant_name!r}")


def parse_profile(data: dict, where: str = "profile") -> BoardProfile:
    """Check and convert a profile's parsed TOML."""
    sensor = _table(data, "sensor", where)
    gpio = _table(data, "gpio", where)
    leds = _table(data, "leds", where)
    width = _int(data, "width", where, 2, 26)
    height = _int(data, "height", where, 2, 26)
    orientation = data.get("orientation", ORIENTATIONS[0])
    if orientation not in ORIENTATIONS:
        raise ProfileError(f"{where}: orientation must be one of {', '.join(ORIENTATIONS)}")
    source = sensor.get("source", "serial")
    if source not in SOURCES:
        raise ProfileError(f"{where}: sensor.source must be one of {', '.join(SOURCES)}")
    kind = sensor.get("kind", "occupancy")
    if kind not in KINDS:
        raise ProfileError(f"{where}: sensor.kind must be one of {', '.join(KINDS)}")
    rows = tuple(gpio.get("rows", ()))
    cols = tuple(gpio.get("cols", ()))
    if source == "gpio" or rows or cols:
        if len(rows) != height or len(cols) != width:
            raise ProfileError(f"{where}: gpio needs {height} rows and {width} cols, "
                               f"got {len(rows)} and {len(cols)}")
        pins = rows + cols
        if len(set(pins)) != len(pins) or not all(isinstance(p, int) and 0 <= p <= 27 for p in pins):
            raise ProfileError(f"{where}: gpio pins must be distinct BCM numbers 0..27")
    markers = sensor.get("volcano_markers_sensed")
    if markers is not None and not isinstance(markers, bool):
        raise ProfileError(f"{where}: sensor.volcano_markers_sensed must be true or false")
    layout = leds.get("layout", "serpentine")
    if layout not in LED_LAYOUTS:
        raise ProfileError(f"{where}: leds.layout must be one of {', '.join(LED_LAYOUTS)}")
    return BoardProfile(
        name=str(data.get("name", Path(where).stem)),
        width=width,
        height=height,
        variants=tuple(data.get("variants", ())),
        orientation=orientation,
        source=source,
        sensor_kind=kind,
        serial_port=str(sensor.get("serial_port", "/dev/ttyACM0")),
        baudrate=_int(sensor, "baudrate", where, 300, 4_000_000, 115200),
        scan_hz=_int(sensor, "scan_hz", where, 10, 5000, 200),
        debounce_scans=_int(sensor, "debounce_scans", where, 1, 50, 3),
        quiet_ms=_int(sensor, "quiet_ms", where, 0, 5000, 20),
        gpio_rows=rows,
        gpio_cols=cols,
        leds_enabled=bool(leds.get("enabled", False)),
        led_pin=leds.get("pin"),
        led_layout=layout,
        path=where,
        volcano_markers_sensed=markers,
    )


def _table(data: dict, key: str, where: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ProfileError(f"{where}: [{key}] must be a table")
    return value


def _int(data: dict, key: str, where: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProfileError(f"{where}: {key} must be a whole number from {low} to {high}")
    return value
