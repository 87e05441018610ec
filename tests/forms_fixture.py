"""Small dumps with form bodies, a composition schema and a role, in both formats.

Built from the sample configuration (examples/config-designer, examples/config-edt, the
same ``ДемоТорговля``): the item form of Справочник.Номенклатура gets a body, its template
Ценник becomes a composition schema, and a role ``Менеджер`` is added with rights on the
catalog (one with a record-level restriction) and on an object that does not exist. The
Designer and EDT texts say the same things in each format's own spelling, so both readers
must give the same model.
"""
from __future__ import annotations

import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DESIGNER = REPO / "examples" / "config-designer"
EDT = REPO / "examples" / "config-edt"

MODULE = """&НаСервере
Процедура ПриСозданииНаСервере(Отказ, СтандартнаяОбработка)
КонецПроцедуры

&НаКлиенте
Асинх Процедура НаименованиеПриИзменении(Элемент)
КонецПроцедуры

&НаКлиенте
Функция ЦенаНачалоВыбора(Элемент, ДанныеВыбора, СтандартнаяОбработка) Экспорт
КонецФункции

&НаКлиенте
Процедура Пересчитать(Команда)
КонецПроцедуры
"""
# ПриОткрытии is named by the form but absent from the module: reported as missing.

DESIGNER_FORM = """\ufeff<?xml version="1.0" encoding="UTF-8"?>
<Form xmlns="http://v8.1c.ru/8.3/xcf/logform" xmlns:cfg="http://v8.1c.ru/8.1/data/enterprise/current-config" xmlns:v8="http://v8.1c.ru/8.1/data/core" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" version="2.16">
	<Title><v8:item><v8:lang>ru</v8:lang><v8:content>Товар</v8:content></v8:item></Title>
	<AutoCommandBar name="ФормаКоманднаяПанель" id="-1">
		<ChildItems>
			<Button name="ФормаПересчитать" id="20">
				<Type>CommandBarButton</Type>
				<CommandName>Form.Command.Пересчитать</CommandName>
				<ExtendedTooltip name="ФормаПересчитатьРасширеннаяПодсказка" id="21"/>
			</Button>
		</ChildItems>
	</AutoCommandBar>
	<Events>
		<Event name="OnOpen">ПриОткрытии</Event>
		<Event name="OnCreateAtServer">ПриСозданииНаСервере</Event>
	</Events>
	<ChildItems>
		<UsualGroup name="ГруппаШапка" id="1">
			<Title><v8:item><v8:lang>ru</v8:lang><v8:content>Шапка</v8:content></v8:item></Title>
			<Group>Horizontal</Group>
			<ExtendedTooltip name="ГруппаШапкаРасширеннаяПодсказка" id="2"/>
			<ChildItems>
				<InputField name="Наименование" id="3">
					<DataPath>Объект.Description</DataPath>
					<ContextMenu name="НаименованиеКонтекстноеМеню" id="4"/>
					<ExtendedTooltip name="НаименованиеРасширеннаяПодсказка" id="5"/>
					<Events>
						<Event name="OnChange">НаименованиеПриИзменении</Event>
					</Events>
				</InputField>
				<InputField name="Код" id="6">
					<DataPath>Объект.Code</DataPath>
					<ReadOnly>true</ReadOnly>
					<ContextMenu name="КодКонтекстноеМеню" id="7"/>
					<ExtendedTooltip name="КодРасширеннаяПодсказка" id="8"/>
				</InputField>
			</ChildItems>
		</UsualGroup>
		<Pages name="Страницы" id="9">
			<ExtendedTooltip name="СтраницыРасширеннаяПодсказка" id="10"/>
			<ChildItems>
				<Page name="СтраницаЦены" id="11">
					<Title><v8:item><v8:lang>ru</v8:lang><v8:content>Цены</v8:content></v8:item></Title>
					<ExtendedTooltip name="СтраницаЦеныРасширеннаяПодсказка" id="12"/>
					<ChildItems>
						<Table name="Цены" id="13">
							<DataPath>Цены</DataPath>
							<Visible>false</Visible>
							<ContextMenu name="ЦеныКонтекстноеМеню" id="14"/>
							<AutoCommandBar name="ЦеныКоманднаяПанель" id="15"/>
							<ExtendedTooltip name="ЦеныРасширеннаяПодсказка" id="16"/>
							<ChildItems>
								<InputField name="ЦеныЦена" id="17">
									<DataPath>Цены.Цена</DataPath>
									<Events>
										<Event name="StartChoice">ЦенаНачалоВыбора</Event>
									</Events>
								</InputField>
							</ChildItems>
						</Table>
						<Sparkle name="Блестка" id="18"/>
					</ChildItems>
				</Page>
			</ChildItems>
		</Pages>
	</ChildItems>
	<Attributes>
		<Attribute name="Объект" id="1">
			<Type><v8:Type>cfg:CatalogObject.Номенклатура</v8:Type></Type>
			<MainAttribute>true</MainAttribute>
		</Attribute>
		<Attribute name="Цены" id="2">
			<Title><v8:item><v8:lang>ru</v8:lang><v8:content>Цены</v8:content></v8:item></Title>
			<Type><v8:Type>v8:ValueTable</v8:Type></Type>
			<Columns>
				<Column name="Цена" id="1">
					<Type>
						<v8:Type>xs:decimal</v8:Type>
						<v8:NumberQualifiers><v8:Digits>15</v8:Digits><v8:FractionDigits>2</v8:FractionDigits><v8:AllowedSign>Any</v8:AllowedSign></v8:NumberQualifiers>
					</Type>
				</Column>
			</Columns>
		</Attribute>
		<Attribute name="СписокПартнеров" id="3">
			<Type><v8:Type>cfg:DynamicList</v8:Type></Type>
			<Settings xsi:type="DynamicList">
				<ManualQuery>true</ManualQuery>
				<DynamicDataRead>true</DynamicDataRead>
				<QueryText>ВЫБРАТЬ
	Партнеры.Ссылка КАК Ссылка
ИЗ
	Справочник.Партнеры КАК Партнеры</QueryText>
				<MainTable>Catalog.Партнеры</MainTable>
			</Settings>
		</Attribute>
	</Attributes>
	<Commands>
		<Command name="Пересчитать" id="1">
			<Title><v8:item><v8:lang>ru</v8:lang><v8:content>Пересчитать цены</v8:content></v8:item></Title>
			<Action>Пересчитать</Action>
		</Command>
	</Commands>
	<Parameters>
		<Parameter name="Партнер">
			<Type><v8:Type>cfg:CatalogRef.Партнеры</v8:Type></Type>
			<KeyParameter>true</KeyParameter>
		</Parameter>
	</Parameters>
</Form>
"""

EDT_FORM = """<?xml version="1.0" encoding="UTF-8"?>
<form:Form xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:core="http://g5.1c.ru/v8/dt/mcore" xmlns:form="http://g5.1c.ru/v8/dt/form">
  <items xsi:type="form:FormGroup">
    <name>ГруппаШапка</name>
    <id>1</id>
    <items xsi:type="form:FormField">
      <name>Наименование</name>
      <id>3</id>
      <visible>true</visible>
      <enabled>true</enabled>
      <dataPath xsi:type="form:DataPath"><segments>Объект.Description</segments></dataPath>
      <handlers><event>OnChange</event><name>НаименованиеПриИзменении</name></handlers>
      <extendedTooltip><name>НаименованиеРасширеннаяПодсказка</name><id>5</id><visible>true</visible></extendedTooltip>
      <contextMenu><name>НаименованиеКонтекстноеМеню</name><id>4</id><visible>true</visible></contextMenu>
      <type>InputField</type>
    </items>
    <items xsi:type="form:FormField">
      <name>Код</name>
      <id>6</id>
      <visible>true</visible>
      <enabled>true</enabled>
      <readOnly>true</readOnly>
      <dataPath xsi:type="form:DataPath"><segments>Объект.Code</segments></dataPath>
      <contextMenu><name>КодКонтекстноеМеню</name><id>7</id></contextMenu>
      <type>InputField</type>
    </items>
    <visible>true</visible>
    <enabled>true</enabled>
    <title><key>ru</key><value>Шапка</value></title>
    <type>UsualGroup</type>
    <extInfo xsi:type="form:UsualGroupExtInfo"><group>Horizontal</group></extInfo>
  </items>
  <items xsi:type="form:FormGroup">
    <name>Страницы</name>
    <id>9</id>
    <items xsi:type="form:FormGroup">
      <name>СтраницаЦены</name>
      <id>11</id>
      <items xsi:type="form:Table">
        <name>Цены</name>
        <id>13</id>
        <enabled>true</enabled>
        <dataPath xsi:type="form:DataPath"><segments>Цены</segments></dataPath>
        <items xsi:type="form:FormField">
          <name>ЦеныЦена</name>
          <id>17</id>
          <visible>true</visible>
          <enabled>true</enabled>
          <dataPath xsi:type="form:DataPath"><segments>Цены.Цена</segments></dataPath>
          <type>InputField</type>
          <extInfo xsi:type="form:InputFieldExtInfo">
            <handlers><event>StartChoice</event><name>ЦенаНачалоВыбора</name></handlers>
          </extInfo>
        </items>
        <autoCommandBar><name>ЦеныКоманднаяПанель</name><id>15</id></autoCommandBar>
        <contextMenu><name>ЦеныКонтекстноеМеню</name><id>14</id></contextMenu>
      </items>
      <items xsi:type="form:Sparkle">
        <name>Блестка</name>
        <id>18</id>
        <visible>true</visible>
        <enabled>true</enabled>
      </items>
      <visible>true</visible>
      <enabled>true</enabled>
      <title><key>ru</key><value>Цены</value></title>
      <type>Page</type>
    </items>
    <visible>true</visible>
    <enabled>true</enabled>
    <type>Pages</type>
  </items>
  <autoCommandBar>
    <name>ФормаКоманднаяПанель</name>
    <id>-1</id>
    <items xsi:type="form:Button">
      <name>ФормаПересчитать</name>
      <id>20</id>
      <visible>true</visible>
      <enabled>true</enabled>
      <commandName>Form.Command.Пересчитать</commandName>
    </items>
  </autoCommandBar>
  <handlers><event>OnCreateAtServer</event><name>ПриСозданииНаСервере</name></handlers>
  <title><key>ru</key><value>Товар</value></title>
  <attributes>
    <name>Объект</name>
    <id>1</id>
    <valueType><types>CatalogObject.Номенклатура</types></valueType>
    <main>true</main>
  </attributes>
  <attributes>
    <name>Цены</name>
    <title><key>ru</key><value>Цены</value></title>
    <id>2</id>
    <valueType><types>ValueTable</types></valueType>
    <columns>
      <name>Цена</name>
      <id>1</id>
      <valueType><types>Number</types><numberQualifiers><precision>15</precision><scale>2</scale></numberQualifiers></valueType>
    </columns>
  </attributes>
  <attributes>
    <name>СписокПартнеров</name>
    <id>3</id>
    <valueType><types>DynamicList</types></valueType>
    <extInfo xsi:type="form:DynamicListExtInfo">
      <queryText>ВЫБРАТЬ
	Партнеры.Ссылка КАК Ссылка
ИЗ
	Справочник.Партнеры КАК Партнеры</queryText>
      <mainTable>Catalog.Партнеры</mainTable>
      <dynamicDataRead>true</dynamicDataRead>
      <customQuery>true</customQuery>
    </extInfo>
  </attributes>
  <formCommands>
    <name>Пересчитать</name>
    <title><key>ru</key><value>Пересчитать цены</value></title>
    <id>1</id>
    <action xsi:type="form:FormCommandHandlerContainer"><handler><name>Пересчитать</name></handler></action>
  </formCommands>
  <parameters>
    <name>Партнер</name>
    <valueType><types>CatalogRef.Партнеры</types></valueType>
    <keyParameter>true</keyParameter>
  </parameters>
  <extInfo xsi:type="form:CatalogFormExtInfo">
    <handlers><event>OnOpen</event><name>ПриОткрытии</name></handlers>
  </extInfo>
</form:Form>
"""

SCHEMA = """<?xml version="1.0" encoding="UTF-8"?>
<DataCompositionSchema xmlns="http://v8.1c.ru/8.1/data-composition-system/schema" xmlns:dcscom="http://v8.1c.ru/8.1/data-composition-system/common" xmlns:dcscor="http://v8.1c.ru/8.1/data-composition-system/core" xmlns:dcsset="http://v8.1c.ru/8.1/data-composition-system/settings" xmlns:v8="http://v8.1c.ru/8.1/data/core" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
	<dataSource><name>ИсточникДанных1</name><dataSourceType>Local</dataSourceType></dataSource>
	<dataSet xsi:type="DataSetQuery">
		<name>Цены</name>
		<field xsi:type="DataSetFieldField">
			<dataPath>Номенклатура</dataPath>
			<field>Номенклатура</field>
			<title xsi:type="v8:LocalStringType"><v8:item><v8:lang>ru</v8:lang><v8:content>Товар</v8:content></v8:item></title>
			<role><dcscom:dimension>true</dcscom:dimension></role>
		</field>
		<field xsi:type="DataSetFieldField">
			<dataPath>Цена</dataPath>
			<field>Цена</field>
		</field>
		<dataSource>ИсточникДанных1</dataSource>
		<query>ВЫБРАТЬ
	Номенклатура.Ссылка КАК Номенклатура,
	0 КАК Цена
ИЗ
	Справочник.Номенклатура КАК Номенклатура</query>
	</dataSet>
	<dataSet xsi:type="DataSetSparkle">
		<name>Странный</name>
	</dataSet>
	<calculatedField>
		<dataPath>ЦенаСНДС</dataPath>
		<expression>Цена * 1.2</expression>
	</calculatedField>
	<totalField>
		<dataPath>Цена</dataPath>
		<expression>Максимум(Цена)</expression>
	</totalField>
	<parameter>
		<name>Дата</name>
		<title xsi:type="v8:LocalStringType"><v8:item><v8:lang>ru</v8:lang><v8:content>Дата цен</v8:content></v8:item></title>
		<valueType><v8:Type>xs:dateTime</v8:Type><v8:DateQualifiers><v8:DateFractions>Date</v8:DateFractions></v8:DateQualifiers></valueType>
		<value xsi:type="xs:dateTime">0001-01-01T00:00:00</value>
		<useRestriction>false</useRestriction>
	</parameter>
	<settingsVariant>
		<dcsset:name>Основной</dcsset:name>
		<dcsset:presentation xsi:type="xs:string">Прайс-лист</dcsset:presentation>
	</settingsVariant>
</DataCompositionSchema>
"""

RIGHTS = """<?xml version="1.0" encoding="UTF-8"?>
<Rights xmlns="http://v8.1c.ru/8.2/roles" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="Rights" version="2.16">
	<setForNewObjects>false</setForNewObjects>
	<setForAttributesByDefault>true</setForAttributesByDefault>
	<independentRightsOfChildObjects>false</independentRightsOfChildObjects>
	<object>
		<name>Catalog.Номенклатура</name>
		<right><name>Read</name><value>true</value>
			<restrictionByCondition><condition>Номенклатура ГДЕ Номенклатура.ПометкаУдаления = ЛОЖЬ</condition></restrictionByCondition>
		</right>
		<right><name>Insert</name><value>false</value></right>
		<right><name>View</name><value>true</value></right>
	</object>
	<object>
		<name>Catalog.НетТакого</name>
		<right><name>Read</name><value>true</value></right>
	</object>
	<restrictionTemplate>
		<name>ПоВладельцу(Поле)</name>
		<condition>ГДЕ #Поле = &amp;Владелец</condition>
	</restrictionTemplate>
</Rights>
"""


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8-sig")
    assert old in text, f"{path}: {old!r} not found (the sample changed?)"
    bom = path.read_bytes().startswith(b"\xef\xbb\xbf")
    path.write_text(("\ufeff" if bom else "") + text.replace(old, new, 1), encoding="utf-8")


def designer_dump(tmp: Path) -> Path:
    root = tmp / "designer"
    shutil.copytree(DESIGNER, root)
    form = root / "Catalogs/Номенклатура/Forms/ФормаЭлемента/Ext"
    form.mkdir(parents=True, exist_ok=True)      # the sample has a minimal body: replaced
    (form / "Form.xml").write_text(DESIGNER_FORM, encoding="utf-8")
    (form / "Form").mkdir(exist_ok=True)
    (form / "Form" / "Module.bsl").write_text("\ufeff" + MODULE, encoding="utf-8")
    _edit(root / "Catalogs/Номенклатура/Templates/Ценник.xml", "<TemplateType>SpreadsheetDocument",
          "<TemplateType>DataCompositionSchema")
    ext = root / "Catalogs/Номенклатура/Templates/Ценник/Ext"
    ext.mkdir(parents=True)
    (ext / "Template.xml").write_text(SCHEMA, encoding="utf-8")
    _edit(root / "Configuration.xml", "<Catalog>Партнеры</Catalog>",
          "<Role>Менеджер</Role>\n\t\t\t<Catalog>Партнеры</Catalog>")
    (root / "Roles/Менеджер/Ext").mkdir(parents=True)
    (root / "Roles/Менеджер.xml").write_text(
        '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<MetaDataObject xmlns="http://v8.1c.ru/8.3/MDClasses" '
        'xmlns:v8="http://v8.1c.ru/8.1/data/core" version="2.16">\n\t<Role uuid="0b0e3c1e-1111-4a4a-9a9a-000000000001">'
        '\n\t\t<Properties>\n\t\t\t<Name>Менеджер</Name>\n\t\t\t<Synonym><v8:item><v8:lang>ru</v8:lang>'
        '<v8:content>Менеджер по продажам</v8:content></v8:item></Synonym>\n\t\t\t<Comment/>\n\t\t</Properties>'
        '\n\t</Role>\n</MetaDataObject>\n', encoding="utf-8")
    (root / "Roles/Менеджер/Ext/Rights.xml").write_text(RIGHTS, encoding="utf-8")
    return root


def edt_project(tmp: Path) -> Path:
    root = tmp / "edt"
    shutil.copytree(EDT, root)
    form = root / "src/Catalogs/Номенклатура/Forms/ФормаЭлемента"
    (form / "Form.form").write_text(EDT_FORM, encoding="utf-8")
    (form / "Module.bsl").write_text(MODULE, encoding="utf-8")
    _edit(root / "src/Catalogs/Номенклатура/Номенклатура.mdo", "<name>Ценник</name>",
          "<name>Ценник</name>\n    <templateType>DataCompositionSchema</templateType>")
    tpl = root / "src/Catalogs/Номенклатура/Templates/Ценник"
    tpl.mkdir(parents=True)
    (tpl / "Template.dcs").write_text(SCHEMA, encoding="utf-8")
    _edit(root / "src/Configuration/Configuration.mdo", "<catalogs>Catalog.Партнеры</catalogs>",
          "<roles>Role.Менеджер</roles>\n  <catalogs>Catalog.Партнеры</catalogs>")
    role = root / "src/Roles/Менеджер"
    role.mkdir(parents=True)
    (role / "Менеджер.mdo").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<mdclass:Role xmlns:mdclass="http://g5.1c.ru/v8/dt/metadata/mdclass" '
        'uuid="0b0e3c1e-1111-4a4a-9a9a-000000000001">\n  <name>Менеджер</name>\n  <synonym>\n    <key>ru</key>\n'
        '    <value>Менеджер по продажам</value>\n  </synonym>\n</mdclass:Role>\n', encoding="utf-8")
    (role / "Rights.rights").write_text(RIGHTS, encoding="utf-8")
    return root
