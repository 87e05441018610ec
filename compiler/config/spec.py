"""Which properties the model keeps, how each is decoded, and its default.

Both readers map a source property to its Designer name (EDT's lowerCamelCase is the same
name with a lower first letter, see ``edt_to_designer``), look it up here and decode it by
``kind``; a kept property that the source omits (EDT omits defaults, domain-1c.md §4.9) gets
``default``. A property that is neither kept nor listed in ``IGNORED``/``EDT_IGNORED`` is
counted in the compile report as unknown.

Kinds: ``bool``, ``int``, ``str`` (enum/plain text), ``ref`` (one MDObjectRef text),
``refs`` (list of MDObjectRef texts), ``type`` (TypeDescription), ``lstr`` (synonym-like
dict lang → text).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Prop:
    key: str          # model key (snake_case)
    kind: str
    default: Any = None


def _p(key: str, kind: str, default: Any = None) -> Prop:
    return Prop(key, kind, default)


# Class-agnostic object properties (Designer names). ``default`` is what an omitted EDT
# element means: EDT's model defaults, i.e. false, 0, "" and the *first* literal of an enum
# (so CodeType → Number, CodeAllowedLength → Fixed, DefaultPresentation → AsCode, AutoUse →
# Use) — checked property by property against SSL 3.1.10 in both formats (tools/diff_models.py).
OBJECT_PROPS: dict[str, Prop] = {
    # hierarchy, codes, numbers
    "Hierarchical": _p("hierarchical", "bool", False),
    "HierarchyType": _p("hierarchy_type", "str", "HierarchyFoldersAndItems"),
    "LimitLevelCount": _p("limit_level_count", "bool", False),
    "LevelCount": _p("level_count", "int", 0),
    "FoldersOnTop": _p("folders_on_top", "bool", False),
    "Owners": _p("owners", "refs", ()),
    "SubordinationUse": _p("subordination_use", "str", "ToItems"),
    "CodeLength": _p("code_length", "int", 0),
    "CodeType": _p("code_type", "str", "Number"),
    "CodeAllowedLength": _p("code_allowed_length", "str", "Fixed"),
    "CodeSeries": _p("code_series", "str", "WholeCatalog"),
    "CodeMask": _p("code_mask", "str", ""),
    "DescriptionLength": _p("description_length", "int", 0),
    "Autonumbering": _p("autonumbering", "bool", False),
    "CheckUnique": _p("check_unique", "bool", False),
    "DefaultPresentation": _p("default_presentation", "str", "AsCode"),
    "NumberType": _p("number_type", "str", "Number"),
    "NumberLength": _p("number_length", "int", 0),
    "NumberAllowedLength": _p("number_allowed_length", "str", "Fixed"),
    "NumberPeriodicity": _p("number_periodicity", "str", "Nonperiodical"),
    "BasedOn": _p("based_on", "refs", ()),
    # documents
    "Posting": _p("posting", "str", "Allow"),
    "RealTimePosting": _p("real_time_posting", "str", "Allow"),
    "RegisterRecordsDeletion": _p("register_records_deletion", "str", "AutoDeleteOnUnpost"),
    "RegisterRecordsWritingOnPost": _p("register_records_writing_on_post", "str", "WriteSelected"),
    "SequenceFilling": _p("sequence_filling", "str", "AutoFill"),
    "RegisterRecords": _p("register_records", "refs", ()),
    "Numerator": _p("numerator", "ref", ""),
    "PostInPrivilegedMode": _p("post_in_privileged_mode", "bool", False),
    "UnpostInPrivilegedMode": _p("unpost_in_privileged_mode", "bool", False),
    "RegisteredDocuments": _p("registered_documents", "refs", ()),
    # charts
    "Type": _p("type", "type", None),
    "CharacteristicExtValues": _p("characteristic_ext_values", "ref", ""),
    "ExtDimensionTypes": _p("ext_dimension_types", "ref", ""),
    "MaxExtDimensionCount": _p("max_ext_dimension_count", "int", 0),
    "OrderLength": _p("order_length", "int", 0),
    "AutoOrderByCode": _p("auto_order_by_code", "bool", False),
    "DependenceOnCalculationTypes": _p("dependence_on_calculation_types", "str", "DontUse"),
    "BaseCalculationTypes": _p("base_calculation_types", "refs", ()),
    "ActionPeriodUse": _p("action_period_use", "bool", False),
    # registers
    "InformationRegisterPeriodicity": _p("periodicity", "str", "Nonperiodical"),
    "WriteMode": _p("write_mode", "str", "Independent"),
    "MainFilterOnPeriod": _p("main_filter_on_period", "bool", False),
    "EnableTotalsSliceFirst": _p("enable_totals_slice_first", "bool", False),
    "EnableTotalsSliceLast": _p("enable_totals_slice_last", "bool", False),
    "RegisterType": _p("register_type", "str", "Balance"),
    "EnableTotalsSplitting": _p("enable_totals_splitting", "bool", False),
    "ChartOfAccounts": _p("chart_of_accounts", "ref", ""),
    "Correspondence": _p("correspondence", "bool", False),
    "PeriodAdjustmentLength": _p("period_adjustment_length", "int", 0),
    "ChartOfCalculationTypes": _p("chart_of_calculation_types", "ref", ""),
    "Periodicity": _p("periodicity", "str", "Month"),
    "ActionPeriod": _p("action_period", "bool", False),
    "BasePeriod": _p("base_period", "bool", False),
    "Schedule": _p("schedule", "ref", ""),
    "ScheduleValue": _p("schedule_value", "ref", ""),
    "ScheduleDate": _p("schedule_date", "ref", ""),
    # business processes, tasks
    "Task": _p("task", "ref", ""),
    "CreateTaskInPrivilegedMode": _p("create_task_in_privileged_mode", "bool", False),
    "Addressing": _p("addressing", "ref", ""),
    "MainAddressingAttribute": _p("main_addressing_attribute", "ref", ""),
    "CurrentPerformer": _p("current_performer", "ref", ""),
    "TaskNumberAutoPrefix": _p("task_number_auto_prefix", "str", "BusinessProcessNumber"),
    # exchange plans, sequences, filter criteria
    "DistributedInfoBase": _p("distributed_info_base", "bool", False),
    "IncludeConfigurationExtensions": _p("include_configuration_extensions", "bool", False),
    "Documents": _p("documents", "refs", ()),
    "MoveBoundaryOnPosting": _p("move_boundary_on_posting", "str", "Move"),
    # common attributes
    "AutoUse": _p("auto_use", "str", "Use"),
    "DataSeparation": _p("data_separation", "str", "Separate"),
    "SeparatedDataUse": _p("separated_data_use", "str", "Independently"),
    "DataSeparationValue": _p("data_separation_value", "ref", ""),
    "DataSeparationUse": _p("data_separation_use", "ref", ""),
    "ConditionalSeparation": _p("conditional_separation", "ref", ""),
    "UsersSeparation": _p("users_separation", "str", "Separate"),
    "AuthenticationSeparation": _p("authentication_separation", "str", "Separate"),
    "ConfigurationExtensionsSeparation": _p("configuration_extensions_separation", "str", "Separate"),
    "Indexing": _p("indexing", "str", "DontIndex"),
    "FillChecking": _p("fill_checking", "str", "DontCheck"),
    # common modules
    "Global": _p("global", "bool", False),
    "ClientManagedApplication": _p("client_managed_application", "bool", False),
    "Server": _p("server", "bool", False),
    "ExternalConnection": _p("external_connection", "bool", False),
    "ClientOrdinaryApplication": _p("client_ordinary_application", "bool", False),
    "ServerCall": _p("server_call", "bool", False),
    "Privileged": _p("privileged", "bool", False),
    "ReturnValuesReuse": _p("return_values_reuse", "str", "DontUse"),
    # scheduled jobs, event subscriptions, functional options, subsystems
    "MethodName": _p("method_name", "str", ""),
    "Description": _p("description", "str", ""),
    "Key": _p("key", "str", ""),
    "Use": _p("use", "bool", False),
    "Predefined": _p("predefined", "bool", False),
    "RestartCountOnFailure": _p("restart_count_on_failure", "int", 0),
    "RestartIntervalOnFailure": _p("restart_interval_on_failure", "int", 0),
    "Source": _p("source", "type", None),
    "Event": _p("event", "str", ""),
    "Handler": _p("handler", "str", ""),
    "Location": _p("location", "ref", ""),
    "PrivilegedGetMode": _p("privileged_get_mode", "bool", False),
    "IncludeInCommandInterface": _p("include_in_command_interface", "bool", False),
    # What the object says about itself to users (search reads them; cards do not show them)
    "Explanation": _p("explanation", "lstr"),
    "ListPresentation": _p("list_presentation", "lstr"),
    "ObjectPresentation": _p("object_presentation", "lstr"),
    "ExtendedListPresentation": _p("extended_list_presentation", "lstr"),
    "ExtendedObjectPresentation": _p("extended_object_presentation", "lstr"),
    "RecordPresentation": _p("record_presentation", "lstr"),
    "ExtendedRecordPresentation": _p("extended_record_presentation", "lstr"),
    "UseOneCommand": _p("use_one_command", "bool", False),
    # misc classes
    "TemplateType": _p("template_type", "str", "SpreadsheetDocument"),
    "FormType": _p("form_type", "str", "Managed"),
    "LanguageCode": _p("language_code", "str", ""),
    "Namespace": _p("namespace", "str", ""),
    "RootURL": _p("root_url", "str", ""),
    "LocationURL": _p("location_url", "str", ""),
    "Group": _p("group", "str", ""),
    "CommandParameterType": _p("command_parameter_type", "type", None),
    "ModifiesData": _p("modifies_data", "bool", False),
    "Category": _p("category", "str", "NavigationPanel"),
    "MainDataCompositionSchema": _p("main_data_composition_schema", "ref", ""),
    "ServerURL": _p("server_url", "str", ""),
}

# Per-class exceptions: the same Designer name means something else on these classes.
CLASS_PROPS: dict[tuple[str, str], Prop] = {
    ("FunctionalOptionsParameter", "Use"): _p("use", "refs", ()),
    ("StyleItem", "Type"): _p("type", "str", "Color"),
    ("CommonAttribute", "Content"): _p("content", "common_attribute_content", ()),
    ("FilterCriterion", "Content"): _p("content", "refs", ()),
    ("FunctionalOption", "Content"): _p("content", "refs", ()),
    ("Subsystem", "Content"): _p("content", "refs", ()),
    ("ExchangePlan", "Content"): _p("content", "exchange_plan_content", ()),
    ("ChartOfCharacteristicTypes", "CodeSeries"): _p("code_series", "str", "WholeCharacteristicKind"),
    ("ChartOfAccounts", "CodeSeries"): _p("code_series", "str", "WholeChartOfAccounts"),
}

# Properties of typed children (attributes, dimensions, resources, columns…).
FIELD_PROPS: dict[str, Prop] = {
    "Type": _p("type", "type", None),
    "Indexing": _p("indexing", "str", "DontIndex"),
    "FillChecking": _p("fill_checking", "str", "DontCheck"),
    "Use": _p("use", "str", "ForItem"),
    "Master": _p("master", "bool", False),
    "MainFilter": _p("main_filter", "bool", False),
    "DenyIncompleteValues": _p("deny_incomplete_values", "bool", False),
    "Balance": _p("balance", "bool", False),
    "AccountingFlag": _p("accounting_flag", "ref", ""),
    "ExtDimensionAccountingFlag": _p("ext_dimension_accounting_flag", "ref", ""),
    "UseInTotals": _p("use_in_totals", "bool", False),
    "BaseDimension": _p("base_dimension", "bool", False),
    "ScheduleLink": _p("schedule_link", "ref", ""),
    "AddressingDimension": _p("addressing_dimension", "ref", ""),
    "References": _p("references", "refs", ()),
    "DocumentMap": _p("document_map", "refs", ()),
    "RegisterRecordsMap": _p("register_records_map", "refs", ()),
    "RegisterDimension": _p("register_dimension", "ref", ""),
    "LeadingRegisterData": _p("leading_register_data", "refs", ()),
    "MultiLine": _p("multi_line", "bool", False),
    "PasswordMode": _p("password_mode", "bool", False),
    "LineNumberLength": _p("line_number_length", "int", 5),
    # non-typed children that share this table
    "Group": _p("group", "str", ""),
    "CommandParameterType": _p("command_parameter_type", "type", None),
    "ModifiesData": _p("modifies_data", "bool", False),
    "Template": _p("template", "str", ""),
    "HTTPMethod": _p("http_method", "str", "GET"),
    "Handler": _p("handler", "str", ""),
    "ProcedureName": _p("procedure_name", "str", ""),
    "XDTOReturningValueType": _p("xdto_returning_value_type", "qname", ""),
    "XDTOValueType": _p("xdto_value_type", "qname", ""),
    "TransferDirection": _p("transfer_direction", "str", "In"),
    "Nillable": _p("nillable", "bool", False),
    "Transactioned": _p("transactioned", "bool", False),
    "ExternalIntegrationServiceChannelName": _p("external_channel_name", "str", ""),
    "MessageDirection": _p("message_direction", "str", "Send"),
    "ReceiveMessageProcessing": _p("receive_message_processing", "str", ""),
    "ExpressionInDataSource": _p("expression_in_data_source", "str", ""),
    "ReturnValue": _p("return_value", "type", None),
    "NameInDataSource": _p("name_in_data_source", "str", ""),
    "AllowNull": _p("allow_null", "bool", False),
}

# Which FIELD_PROPS apply to which child kind (so that defaults are filled only where the
# property exists; Designer writes exactly these).
FIELD_KEYS_BY_KIND: dict[str, tuple[str, ...]] = {
    "Attribute": ("Type", "Indexing", "FillChecking", "Use", "MultiLine", "PasswordMode", "ScheduleLink"),
    "Dimension": ("Type", "Indexing", "FillChecking", "Master", "MainFilter", "DenyIncompleteValues",
                  "Balance", "AccountingFlag", "UseInTotals", "BaseDimension", "ScheduleLink",
                  "DocumentMap", "RegisterRecordsMap", "MultiLine", "PasswordMode"),
    "Resource": ("Type", "Indexing", "FillChecking", "Balance", "AccountingFlag",
                 "ExtDimensionAccountingFlag", "MultiLine", "PasswordMode", "NameInDataSource"),
    "AccountingFlag": ("Type", "FillChecking", "MultiLine", "PasswordMode"),
    "ExtDimensionAccountingFlag": ("Type", "FillChecking", "MultiLine", "PasswordMode"),
    "AddressingAttribute": ("Type", "Indexing", "FillChecking", "AddressingDimension", "MultiLine", "PasswordMode"),
    "Column": ("Indexing", "References"),
    "TabularSection": ("FillChecking", "Use", "LineNumberLength"),
    "Command": ("Group", "CommandParameterType", "ModifiesData"),
    "URLTemplate": ("Template",),
    "Method": ("HTTPMethod", "Handler"),
    "Operation": ("ProcedureName", "XDTOReturningValueType", "Nillable", "Transactioned"),
    "Parameter": ("XDTOValueType", "TransferDirection", "Nillable"),
    "IntegrationServiceChannel": ("ExternalIntegrationServiceChannelName", "MessageDirection",
                                  "ReceiveMessageProcessing"),
    "Function": ("ExpressionInDataSource", "ReturnValue"),
    "Field": ("Type", "NameInDataSource", "AllowNull"),
    "EnumValue": (),
    "Form": ("FormType",),
    "Template": ("TemplateType",),
    "Recalculation": (),
}
FIELD_PROPS["FormType"] = _p("form_type", "str", "Managed")
FIELD_PROPS["TemplateType"] = _p("template_type", "str", "SpreadsheetDocument")

# Designer names present in real dumps that the model deliberately does not keep (UI,
# presentation, input behaviour, data history, mobile settings…). Listed so that they are
# "known": anything outside this set and the tables above is reported as unknown.
IGNORED: frozenset[str] = frozenset("""
AdditionalFullTextSearchDictionaries AllowedIncomingShareRequestTypes AutoConnect
AuxiliaryChoiceForm AuxiliaryDefaultCollaborationSystemUsersChoiceForm
AuxiliaryDefaultDataHistoryChangeHistoryForm AuxiliaryDefaultDataHistoryVersionDataForm
AuxiliaryDefaultDataHistoryVersionDifferencesForm AuxiliaryDefaultDynamicListSettingsForm
AuxiliaryDefaultReportForm AuxiliaryDefaultReportSettingsForm AuxiliaryDefaultReportVariantForm
AuxiliaryFolderChoiceForm AuxiliaryFolderForm AuxiliaryForm AuxiliaryListForm AuxiliaryLoadForm
AuxiliaryObjectForm AuxiliaryRecordForm AuxiliarySaveForm AuxiliarySettingsForm
AvailabilityForAppearance AvailabilityForChoice BriefInformation Caption Characteristics
ChoiceDataGetModeOnInputByString ChoiceFoldersAndItems ChoiceForm ChoiceHistoryOnInput ChoiceMode
ChoiceParameterLinks ChoiceParameters ClientApplicationTheme ClientApplicationWindowsOpeningVariant
Color CommonSettingsStorage CompatibilityMode ConfigurationExtensionCompatibilityMode
ConfigurationExtensionPurpose ConfigurationInformationAddress Copyright CreateOnInput DataHistory
DataLockControlMode DataLockFields DataVersionField DatabaseTablespacesUseMode
DefaultChoiceForm DefaultCollaborationSystemUsersChoiceForm DefaultConstantsForm
DefaultDataHistoryChangeHistoryForm DefaultDataHistoryVersionDataForm
DefaultDataHistoryVersionDifferencesForm DefaultDynamicListSettingsForm DefaultFolderChoiceForm
DefaultFolderForm DefaultForm DefaultInterface DefaultLanguage DefaultListForm DefaultLoadForm
DefaultObjectForm DefaultRecordForm DefaultReportAppearanceTemplate DefaultReportForm
DefaultReportSettingsForm DefaultReportVariantForm DefaultRoles DefaultRunMode DefaultSaveForm
DefaultSearchForm DefaultSettingsForm DefaultStyle DefaultVariantForm DescriptorFileName
DetailedInformation DynamicListsUserSettingsStorage EditFormat EditType Explanation
ExecuteAfterWriteDataHistoryVersionProcessing ExpressionInDataSource ExtendedEdit
ExtendedListPresentation ExtendedObjectPresentation ExtendedPresentation ExtendedRecordPresentation
ExternalIntegrationServiceAddress FillFromFillingValue FillValue Format FormDataSettingsStorage
FullTextSearch FullTextSearchOnInputByString Headers HierarchyNameInDataSource IncludeHelpInContents
InputByString InterfaceCompatibilityMode InterfaceVersion85ConvertationMode
KeepMappingToExtendedConfigurationObjectsByIDs KeyFields LevelNumber LinkByType ListPresentation
MainClientApplicationWindowInterfaceVariant MainClientApplicationWindowMode MarkNegatives Mask
MaxValue MinValue MobileApplicationURLs ModalityUseMode NameInDataSource NamePrefix
ObjectAutonumerationMode ObjectPresentation OnMainServerUnavalableBehavior ParameterUseMode
ParentField Password Picture PredefinedDataUpdate PresentationField QuickChoice ReadOnly
RecordPresentation ReportsUserSettingsStorage ReportsVariantsStorage Representation
RequiredMobileApplicationPermissions ReuseSessions ScriptVariant SearchStringModeOnInputByString
SessionMaxAge SettingsStorage ShortCaption Shortcut StandaloneConfigurationRestrictionRoles
Switchable SynchronousPlatformExtensionAndAddInCallUseMode TableDataType TableType Timeout ToolTip
TransactionsIsolationLevel TypeReductionMode URLExternalDataStorage UnfilledParentValue
UpdateCatalogAddress UpdateDataHistoryImmediatelyAfterWrite UseManagedFormInOrdinaryApplication
UseOSAuthentication UseOSProxy UseOrdinaryFormInManagedApplication UsePurposes UseStandardCommands
UsedMobileApplicationFunctionalities User UsingInInterfaceCompatibilityMode Value VariantsStorage
Vendor VendorInformationAddress Version XDTOPackages Content DefaultInterface MainSectionPicture
Splash MainSectionCommandInterface StandardTabularSections MultiLine PasswordMode
""".split())

# EDT-only elements with no Designer counterpart (derived data, parent back-links, UI).
EDT_IGNORED: frozenset[str] = frozenset("""
producedTypes containedObjects help parentSubsystem parentDataSource parentCube tableFields
transparentPixel mainSectionPicture splash extension
""".split())

# EDT lowerCamelCase names whose Designer spelling is not just the first letter upper-cased.
EDT_RENAMES: dict[str, str] = {
    "xdtoPackages": "XDTOPackages", "httpMethod": "HTTPMethod", "xdtoValueType": "XDTOValueType",
    "xdtoReturningValueType": "XDTOReturningValueType", "rootURL": "RootURL",
    "locationURL": "LocationURL", "serverURL": "ServerURL",
}


def edt_to_designer(name: str) -> str:
    return EDT_RENAMES.get(name) or (name[:1].upper() + name[1:])


def object_prop(cls: str, name: str) -> Prop | None:
    return CLASS_PROPS.get((cls, name)) or OBJECT_PROPS.get(name)


# Which object properties each class has (Designer writes all of them; EDT omits defaults).
# Built from the Designer dumps: a kept property gets its default only on these classes.
CLASS_KEYS: dict[str, tuple[str, ...]] = {
    "Catalog": ("Hierarchical", "HierarchyType", "LimitLevelCount", "LevelCount", "FoldersOnTop",
                "Owners", "SubordinationUse", "CodeLength", "DescriptionLength", "CodeType",
                "CodeAllowedLength", "CodeSeries", "CheckUnique", "Autonumbering",
                "DefaultPresentation", "BasedOn"),
    "Document": ("NumberType", "NumberLength", "NumberAllowedLength", "NumberPeriodicity",
                 "CheckUnique", "Autonumbering", "BasedOn", "Numerator", "SequenceFilling",
                 "RegisterRecords", "PostInPrivilegedMode", "UnpostInPrivilegedMode", "Posting",
                 "RealTimePosting", "RegisterRecordsDeletion", "RegisterRecordsWritingOnPost"),
    "DocumentJournal": ("RegisteredDocuments",),
    "ChartOfCharacteristicTypes": ("CharacteristicExtValues", "Type", "Hierarchical",
                                   "FoldersOnTop", "CodeLength", "CodeAllowedLength",
                                   "DescriptionLength", "CodeSeries", "CheckUnique",
                                   "Autonumbering", "DefaultPresentation", "BasedOn"),
    "ChartOfAccounts": ("BasedOn", "ExtDimensionTypes", "MaxExtDimensionCount", "CodeMask",
                        "CodeLength", "DescriptionLength", "CodeSeries", "CheckUnique",
                        "DefaultPresentation", "AutoOrderByCode", "OrderLength"),
    "ChartOfCalculationTypes": ("CodeLength", "DescriptionLength", "CodeType", "CodeAllowedLength",
                                "DefaultPresentation", "BasedOn", "DependenceOnCalculationTypes",
                                "BaseCalculationTypes", "ActionPeriodUse"),
    "InformationRegister": ("InformationRegisterPeriodicity", "WriteMode", "MainFilterOnPeriod",
                            "EnableTotalsSliceFirst", "EnableTotalsSliceLast"),
    "AccumulationRegister": ("RegisterType", "EnableTotalsSplitting"),
    "AccountingRegister": ("ChartOfAccounts", "Correspondence", "PeriodAdjustmentLength",
                           "EnableTotalsSplitting"),
    "CalculationRegister": ("Periodicity", "ActionPeriod", "BasePeriod", "Schedule",
                            "ScheduleValue", "ScheduleDate", "ChartOfCalculationTypes"),
    "BusinessProcess": ("NumberType", "NumberLength", "NumberAllowedLength", "CheckUnique",
                        "Autonumbering", "BasedOn", "NumberPeriodicity", "Task",
                        "CreateTaskInPrivilegedMode"),
    "Task": ("NumberType", "NumberLength", "NumberAllowedLength", "CheckUnique", "Autonumbering",
             "TaskNumberAutoPrefix", "DescriptionLength", "Addressing", "MainAddressingAttribute",
             "CurrentPerformer", "BasedOn", "DefaultPresentation"),
    "ExchangePlan": ("CodeLength", "CodeAllowedLength", "DescriptionLength", "DefaultPresentation",
                     "BasedOn", "DistributedInfoBase", "IncludeConfigurationExtensions", "Content"),
    "Constant": ("Type", "FillChecking"),
    "Sequence": ("MoveBoundaryOnPosting", "Documents", "RegisterRecords"),
    "FilterCriterion": ("Type", "Content"),
    "CommonAttribute": ("Type", "Indexing", "FillChecking", "Content", "AutoUse", "DataSeparation",
                        "SeparatedDataUse", "DataSeparationValue", "DataSeparationUse",
                        "ConditionalSeparation", "UsersSeparation", "AuthenticationSeparation",
                        "ConfigurationExtensionsSeparation"),
    "CommonModule": ("Global", "ClientManagedApplication", "Server", "ExternalConnection",
                     "ClientOrdinaryApplication", "ServerCall", "Privileged", "ReturnValuesReuse"),
    "ScheduledJob": ("MethodName", "Description", "Key", "Use", "Predefined",
                     "RestartCountOnFailure", "RestartIntervalOnFailure"),
    "EventSubscription": ("Source", "Event", "Handler"),
    "DefinedType": ("Type",),
    "SessionParameter": ("Type",),
    "FunctionalOption": ("Location", "PrivilegedGetMode", "Content"),
    "FunctionalOptionsParameter": ("Use",),
    "Subsystem": ("IncludeInCommandInterface", "UseOneCommand", "Content"),
    "CommonTemplate": ("TemplateType",),
    "CommonForm": ("FormType",),
    "Language": ("LanguageCode",),
    "XDTOPackage": ("Namespace",),
    "WebService": ("Namespace",),
    "HTTPService": ("RootURL",),
    "WSReference": ("LocationURL",),
    "CommonCommand": ("Group", "CommandParameterType", "ModifiesData"),
    "CommandGroup": ("Category",),
    "Report": ("MainDataCompositionSchema",),
    "ExternalReport": ("MainDataCompositionSchema",),
    "StyleItem": ("Type",),
    "Bot": ("Predefined",),
    "WebSocketClient": ("Predefined", "ServerURL"),
    "DocumentNumerator": ("NumberType", "NumberLength", "NumberAllowedLength", "NumberPeriodicity",
                          "CheckUnique"),
}

# Child collections: Designer <ChildObjects> element → (model list, kind in FIELD_KEYS_BY_KIND).
# EDT names them by the lowerCamelCase plural.
CHILD_COLLECTIONS: dict[str, tuple[str, str]] = {
    "Attribute": ("attributes", "attributes"),
    "TabularSection": ("tabular_sections", "tabularSections"),
    "Dimension": ("dimensions", "dimensions"),
    "Resource": ("resources", "resources"),
    "AccountingFlag": ("accounting_flags", "accountingFlags"),
    "ExtDimensionAccountingFlag": ("ext_dimension_accounting_flags", "extDimensionAccountingFlags"),
    "AddressingAttribute": ("addressing_attributes", "addressingAttributes"),
    "Column": ("columns", "columns"),
    "EnumValue": ("enum_values", "enumValues"),
    "Form": ("forms", "forms"),
    "Template": ("templates", "templates"),
    "Command": ("commands", "commands"),
    "Recalculation": ("recalculations", "recalculations"),
    "URLTemplate": ("other", "urlTemplates"),
    "Operation": ("other", "operations"),
    "IntegrationServiceChannel": ("other", "integrationServiceChannels"),
    "Table": ("other", "tables"),
    "Cube": ("other", "cubes"),
    "Function": ("other", "functions"),
}
EDT_CHILD_COLLECTIONS: dict[str, str] = {v[1]: k for k, v in CHILD_COLLECTIONS.items()}
TYPED_KINDS = frozenset({"Attribute", "Dimension", "Resource", "AccountingFlag",
                         "ExtDimensionAccountingFlag", "AddressingAttribute", "Column"})

# Which field properties exist for a child kind under a given owner ("Document.TabularSection"
# for a tabular section's attributes) — observed in Designer dumps, which write every one.
_T = ("Type", "FillChecking", "MultiLine", "PasswordMode")
_TI = _T + ("Indexing",)
_REF_TS = ("FillChecking", "LineNumberLength")
FIELD_KEYS: dict[tuple[str, str], tuple[str, ...]] = {
    ("AccountingRegister", "Attribute"): _TI,
    ("AccountingRegister", "Dimension"): _TI + ("AccountingFlag", "Balance", "DenyIncompleteValues"),
    ("AccountingRegister", "Resource"): _T + ("AccountingFlag", "Balance", "ExtDimensionAccountingFlag"),
    ("AccumulationRegister", "Attribute"): _TI,
    ("AccumulationRegister", "Dimension"): _TI + ("DenyIncompleteValues", "UseInTotals"),
    ("AccumulationRegister", "Resource"): _T,
    ("CalculationRegister", "Attribute"): _TI + ("ScheduleLink",),
    ("CalculationRegister", "Dimension"): _TI + ("BaseDimension", "DenyIncompleteValues", "ScheduleLink"),
    ("CalculationRegister", "Resource"): _T,
    ("InformationRegister", "Attribute"): _TI,
    ("InformationRegister", "Dimension"): _TI + ("DenyIncompleteValues", "MainFilter", "Master"),
    ("InformationRegister", "Resource"): _TI,
    ("Catalog", "Attribute"): _TI + ("Use",),
    ("Catalog", "TabularSection"): _REF_TS + ("Use",),
    ("ChartOfCharacteristicTypes", "Attribute"): _TI + ("Use",),
    ("ChartOfCharacteristicTypes", "TabularSection"): _REF_TS + ("Use",),
    ("ChartOfAccounts", "AccountingFlag"): _T,
    ("ChartOfAccounts", "ExtDimensionAccountingFlag"): _T,
    ("DataProcessor", "Attribute"): _T,
    ("DataProcessor", "TabularSection"): ("FillChecking",),
    ("DataProcessor.TabularSection", "Attribute"): _T,
    ("Report", "Attribute"): _T,
    ("Report", "TabularSection"): ("FillChecking",),
    ("Report.TabularSection", "Attribute"): _T,
    ("Cube", "Dimension"): _T,
    ("Cube", "Resource"): ("Type", "MultiLine", "PasswordMode"),
    ("Table", "Field"): _T,
    ("DimensionTable", "Field"): _T,
    ("DocumentJournal", "Column"): ("Indexing", "References"),
    ("Sequence", "Dimension"): ("Type", "DocumentMap", "RegisterRecordsMap"),
    ("Recalculation", "Dimension"): ("LeadingRegisterData", "RegisterDimension"),
    ("Task", "AddressingAttribute"): _TI + ("AddressingDimension",),
    ("ExternalDataSource", "Function"): ("Type",),
}


def field_keys(owner: str, kind: str) -> tuple[str, ...]:
    """Field properties of ``kind`` children of ``owner`` (defaults: reference-object rules)."""
    keys = FIELD_KEYS.get((owner, kind))
    if keys is not None:
        return keys
    if kind == "Attribute":
        return _TI      # attributes of reference objects and of their tabular sections
    if kind == "TabularSection":
        return _REF_TS
    return FIELD_KEYS_BY_KIND.get(kind, ())


# Configuration header: Designer property → Configuration field (EDT: same, first letter lower).
CONFIG_FIELDS: dict[str, str] = {
    "Version": "version", "Vendor": "vendor", "CompatibilityMode": "compatibility_mode",
    "ConfigurationExtensionCompatibilityMode": "extension_compatibility_mode",
    "ScriptVariant": "script_variant", "NamePrefix": "name_prefix",
    "ConfigurationExtensionPurpose": "extension_purpose",
}
# Header properties kept as text in ``Configuration.props`` (keyed by the EDT spelling).
CONFIG_EXTRA: tuple[str, ...] = (
    "DefaultRunMode", "DataLockControlMode", "ModalityUseMode", "InterfaceCompatibilityMode",
    "SynchronousPlatformExtensionAndAddInCallUseMode", "ObjectAutonumerationMode",
    "KeepMappingToExtendedConfigurationObjectsByIDs", "DefaultStyle", "BriefInformation", "Copyright")

# Classes with predefined items (Designer Ext/Predefined.xml, EDT inline <predefined>).
PREDEFINED_CLASSES = frozenset({"Catalog", "ChartOfCharacteristicTypes", "ChartOfAccounts",
                                "ChartOfCalculationTypes"})


def lower_first(name: str) -> str:
    return name[:1].lower() + name[1:]
