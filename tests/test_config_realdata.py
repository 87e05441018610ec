"""Configuration readers on the real dumps in ../shared/data/configs (see their READMEs)."""
from __future__ import annotations

from collections import Counter

import pytest

from realdata import extracted
from v8atlas.compiler.config.normalize import config_dict, diff
from v8atlas.compiler.config.plugin import ConfigSourceError, detect, read_configuration
from v8atlas.compiler.report import CompileReport

pytestmark = pytest.mark.realdata

SSL_12 = "configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.12.238.tar.zst"
SSL_10 = "configs/ssl-3.1-designer/ssl_3_1-src-cf-3.1.10.441.tar.zst"
SSL_10_EDT = "configs/ssl-3.1-edt/ssl_3_1_edt-configuration-3.1.10.441.tar.zst"
MDCLASSES = "configs/mdclasses-testdata/mdclasses-test-resources.tar.zst"

# ssl-3.1-designer/README.md, "Top-level objects (2 639, counted as <Type>/<Name>.xml)"
SSL_12_COUNTS = {
    "CommonPicture": 571, "CommonModule": 561, "InformationRegister": 192, "Constant": 173,
    "Role": 107, "CommonForm": 105, "Enum": 104, "StyleItem": 93, "EventSubscription": 91,
    "DataProcessor": 78, "FunctionalOption": 76, "Catalog": 74, "DefinedType": 72,
    "CommonCommand": 62, "SessionParameter": 62, "XDTOPackage": 53, "ScheduledJob": 51,
    "Report": 41, "CommonTemplate": 15, "WebService": 13, "Document": 11, "CommonAttribute": 7,
    "CommandGroup": 6, "ChartOfCharacteristicTypes": 4, "FunctionalOptionsParameter": 4,
    "Subsystem": 3, "DocumentJournal": 2, "HTTPService": 2, "BusinessProcess": 1, "ExchangePlan": 1,
    "FilterCriterion": 1, "Language": 1, "SettingsStorage": 1, "Task": 1,
}


def by_class(cfg) -> Counter:
    c = Counter(o.cls for o in cfg.objects)
    c["Language"] += len(cfg.languages)
    return c


def test_ssl_3_1_12_every_object_compiles_and_counts_match_readme():
    r = CompileReport()
    cfg = read_configuration(extracted(SSL_12) / "src" / "cf", r)
    assert cfg.name == "БиблиотекаСтандартныхПодсистем" and cfg.version == "3.1.12.238"
    assert cfg.platform_version == "8.3.24" and cfg.format_version == "2.20"
    assert not r.errors and not r.warnings
    assert dict(r.unknown) == {}
    counts = by_class(cfg)
    print("\nclass                         model  README")
    for cls, n in sorted(SSL_12_COUNTS.items(), key=lambda x: -x[1]):
        print(f"{cls:28s} {counts.get(cls, 0):6d} {n:7d}")
    assert dict(counts) == SSL_12_COUNTS
    assert sum(1 for _ in cfg.iter_subsystems()) == 3 + 84


def test_ssl_3_1_10_designer_and_edt_give_the_same_model():
    """The README's only explained difference (Languages inside Configuration.mdo) does not
    show: both readers keep languages in Configuration.languages."""
    a = read_configuration(extracted(SSL_10) / "src" / "cf", CompileReport())
    b = read_configuration(extracted(SSL_10_EDT) / "configuration", CompileReport())
    assert len(a.objects) == 2487 and len(b.objects) == 2487
    assert diff(config_dict(a), config_dict(b)) == []


EXT = "src/test/resources/ext"
# Every configuration-like folder in the mdclasses test data: compiles, or is refused with this reason.
MDCLASSES_CASES = {
    "designer/mdclasses/src/cf": None, "designer/mdclasses_3_18/src/cf": None,
    "designer/mdclasses_3_25/src/cf": None, "designer/mdclasses_3_27/src/cf": None,
    "designer/mdclasses_5_1/src/cf": None, "designer/mdclasses_ext/src/cf": None,
    "designer/external/src/epf": "external data processor dump (ExternalDataProcessor.ТестоваяВнешняяОбработка)",
    "designer/external/src/erf": "external report dump (ExternalReport.ТестовыйВнешнийОтчет)",
    "edt/mdclasses/configuration": None, "edt/mdclasses_3_18/configuration": None,
    "edt/mdclasses_3_24/configuration": None, "edt/mdclasses_3_25/configuration": None,
    "edt/mdclasses_3_27/configuration": None, "edt/mdclasses_ext/configuration": None,
    "edt/external": "external data processor and external report dump (ExternalDataProcessor.",
    "edt/mdclasses_unknown/configuration": "unsupported script variant 'Barbarian'",
    "../solutions/sol1/Конфигурация": None, "../solutions/sol1/Расширение1": None,
    "../solutions/sol1/Расширение2": None, "../solutions/sol2/Расширение1": None,
    "../solutions/sol2/Расширение2": None,
}


@pytest.mark.parametrize("rel", sorted(MDCLASSES_CASES))
def test_mdclasses_configuration_compiles_or_is_refused_with_a_reason(rel):
    path = (extracted(MDCLASSES) / EXT / rel).resolve()
    reason = MDCLASSES_CASES[rel]
    r = CompileReport()
    assert detect(path), "claimed, so a compile says why (never 'not a recognized source')"
    if reason:
        with pytest.raises(ConfigSourceError, match=reason.replace("(", r"\(").replace(")", r"\)")):
            read_configuration(path, r)
        return
    cfg = read_configuration(path, r)
    assert cfg.objects
    assert dict(r.unknown) == {}
    # the only errors are files the test data really lacks (named in the message)
    for e in r.errors:
        assert e.code == "missing-file" and not (path / e.file).exists()
    if "_ext" in rel or "Расширение" in rel:
        assert cfg.is_extension and any(o.belonging == "Adopted" for o in cfg.objects)


# Designer/EDT twins in mdclasses; what differs is explained by the test data itself.
TWINS_EXPLAINED = {
    "mdclasses_3_27": {"HTTPService.HTTPСервис1/other_children/URLTemplate[0]/children/Method[1]/props/http_method",
                       "ExternalDataSource.ВнешнийИсточникДанных1/other_children/"},
    "mdclasses_3_25": {"HTTPService.HTTPСервис1/other_children/URLTemplate[0]/children/Method[1]/props/http_method",
                       "ExternalDataSource.ВнешнийИсточникДанных1/other_children/"},
    "mdclasses_3_18": set(),
}


@pytest.mark.parametrize("name", sorted(TWINS_EXPLAINED))
def test_mdclasses_twins_agree(name):
    base = extracted(MDCLASSES) / EXT
    a = read_configuration(base / "designer" / name / "src" / "cf", CompileReport())
    b = read_configuration(base / "edt" / name / "configuration", CompileReport())
    left = [d for d in diff(config_dict(a), config_dict(b))
            if not any(d.startswith("objects/" + x) for x in TWINS_EXPLAINED[name])]
    assert left == []


def test_designer_extension_keeps_adopted_objects_minimal():
    ext = read_configuration(extracted(MDCLASSES) / EXT / "designer/mdclasses_ext/src/cf", CompileReport())
    assert ext.is_extension and ext.name_prefix == "Расш_" and ext.extension_purpose == "Customization"
    adopted = [o for o in ext.objects if o.belonging == "Adopted"]
    assert adopted and all(o.extended_uuid for o in adopted)
    cat = next(o for o in adopted if o.cls == "Catalog")
    assert "code_length" not in cat.props          # no defaults invented for what the base controls


def test_edt_solution_extensions_attach_to_their_base_and_overlay():
    from v8atlas.compiler.config.extensions import attach, overlay
    sol = extracted(MDCLASSES) / "src/test/resources/solutions/sol1"
    cfgs = [read_configuration(sol / n, CompileReport()) for n in ("Конфигурация", "Расширение1", "Расширение2")]
    assert [c.base_name for c in cfgs[1:]] == ["Конфигурация", "Конфигурация"]   # DT-INF/PROJECT.PMF
    pairs, problems = attach(cfgs)
    assert not problems and [e.name for e in pairs[0].extensions] == ["Расширение1", "Расширение2"]
    problems2: list[str] = []
    merged = overlay(pairs[0].base, *pairs[0].extensions, problems=problems2)
    assert not problems2
    assert merged.find("Catalog", "Справочник2").extended_by == ["Расширение2"]
    assert merged.find("Catalog", "Расш1_Справочник3").origin == "Расширение1"
    assert merged.extensions == ["Расширение1", "Расширение2"]
    assert len(merged.objects) > len(cfgs[0].objects)


def test_mdclasses_extension_problems_name_the_extension_and_its_files():
    """Designer mdclasses + its extension: the adopted objects the base lacks are reported against
    the extension's source, with the extension's own files (which exist)."""
    from v8atlas.compiler import pipeline
    from v8atlas.compiler.config import link
    from v8atlas.compiler.sources import Project, Source
    base_dir = extracted(MDCLASSES) / EXT / "designer/mdclasses/src/cf"
    ext_dir = extracted(MDCLASSES) / EXT / "designer/mdclasses_ext/src/cf"
    pairs = [(Source("configuration", "designer", p, name), read_configuration(p, CompileReport(), name))
             for p, name in ((base_dir, "base"), (ext_dir, "ext"))]
    report = CompileReport()
    link.link(pairs, pipeline.LinkContext(Project([s for s, _ in pairs]), report))
    adopted = [w for w in report.warnings if w.code == "adopted-without-base"]
    assert adopted and {w.source for w in adopted} == {"ext"}
    assert all((ext_dir / w.file).is_file() and w.object in w.message for w in adopted)
