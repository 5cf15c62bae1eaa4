package dev.clusterrun.core.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

class JUnitReportTest {
  private static final Instant NOW = Instant.parse("2026-11-21T06:00:00Z");

  private static BenchResult passedHpl() {
    return Fixtures.nvidiaHpl2Nodes(
        Instant.parse("2026-11-21T05:54:03Z"), Instant.parse("2026-11-21T05:56:10.5Z"));
  }

  private static Document parse(String xml) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    return f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
  }

  private static void validate(String xml) throws Exception {
    SchemaFactory sf = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    var schema = sf.newSchema(JUnitReportTest.class.getResource("/bench/junit-ant.xsd"));
    schema.newValidator().validate(new StreamSource(new StringReader(xml)));
  }

  @Test
  void passingRunIsOneGreenCaseWithMetricsAsProperties() throws Exception {
    String xml = JUnitReport.render(List.of(new JUnitReport.Case(passedHpl())), NOW);
    validate(xml);
    Document d = parse(xml);
    Element suite = (Element) d.getElementsByTagName("testsuite").item(0);
    assertThat(suite.getAttribute("name")).isEqualTo("clusterrun.bench.hpl");
    assertThat(suite.getAttribute("tests")).isEqualTo("1");
    assertThat(suite.getAttribute("failures")).isEqualTo("0");
    assertThat(suite.getAttribute("timestamp")).isEqualTo("2026-11-21T05:54:03");
    assertThat(suite.getAttribute("hostname")).isEqualTo("node1");
    assertThat(suite.getAttribute("time")).isEqualTo("127.5");
    assertThat(d.getElementsByTagName("failure").getLength()).isZero();
    NodeList props = d.getElementsByTagName("property");
    java.util.Map<String, String> p = new java.util.HashMap<>();
    for (int i = 0; i < props.getLength(); i++) {
      Element e = (Element) props.item(i);
      p.put(e.getAttribute("name"), e.getAttribute("value"));
    }
    assertThat(p)
        .containsEntry("verdict", "PASSED")
        .containsEntry("headline.value", "574900.0")
        .containsEntry("perGpu", "35930.0")
        .containsEntry("n", "376832")
        .containsEntry("nodes", "node1,node2");
    assertThat(d.getElementsByTagName("system-out").item(0).getTextContent())
        .contains("hpl: PASSED");
  }

  @Test
  void failedParseErrorAndRegressionEachCarryAFailureElement() throws Exception {
    BenchResult failed = new HplParser().parse(Fixtures.read("hpl-netlib-failed-edited.txt"));
    BenchResult broken = new HplParser().parse("\u0001garbage <&> \"quotes\"");
    BenchResult passed = passedHpl();
    GateResult regression = new BaselineGate(5).check(passed, BaselineGateTest.hpl(1_000_000));
    String xml =
        JUnitReport.render(
            List.of(
                new JUnitReport.Case(failed),
                new JUnitReport.Case(broken),
                new JUnitReport.Case(passed, regression)),
            NOW);
    validate(xml);
    Document d = parse(xml);
    Element root = d.getDocumentElement();
    assertThat(root.getTagName()).isEqualTo("testsuites");
    assertThat(root.getAttribute("tests")).isEqualTo("4");
    assertThat(root.getAttribute("failures")).isEqualTo("3");
    NodeList failures = d.getElementsByTagName("failure");
    assertThat(failures.getLength()).isEqualTo(3);
    assertThat(((Element) failures.item(0)).getAttribute("type")).isEqualTo("FAILED");
    assertThat(((Element) failures.item(1)).getAttribute("type")).isEqualTo("PARSE_ERROR");
    Element reg = (Element) failures.item(2);
    assertThat(reg.getAttribute("type")).isEqualTo("REGRESSION");
    assertThat(((Element) reg.getParentNode()).getAttribute("name")).isEqualTo("hpl vs baseline");
    assertThat(reg.getAttribute("message")).contains("1000000 -> 574900").contains("-42.51%");
    NodeList suites = d.getElementsByTagName("testsuite");
    assertThat(((Element) suites.item(1)).getAttribute("id")).isEqualTo("1");
    assertThat(((Element) suites.item(1)).getAttribute("timestamp"))
        .isEqualTo("2026-11-21T06:00:00");
  }
}
