package io.seckill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The picture of a steady load, drawn from the lines a load prints. */
class SteadyLoadChartTests {

    /** Four seconds of a load at 100/s: two of warm-up, then a second without any 202 and a slow one. */
    private static final Map<String, String> SERVICE_LOAD = Map.of(
            "load_rate_asked", "100",
            "load_warm_up_seconds", "2",
            "post_count_by_second", "100 100 0 100",
            "post_p99_ms_by_second", "93.50 2.00 -1 37.40");

    @Test
    void drawsEachSecondOfTheServiceLoadWithTheWarmUpShaded() throws Exception {
        Document svg = parse(SteadyLoadChart.svg(SteadyLoadChart.Load.of("H2 <steady>", SERVICE_LOAD)));

        assertThat(text(svg, "//*[local-name()='text'][1]")).isEqualTo("H2 <steady>");
        // Every second a point of the rate; the second without a 202 breaks the p99's line in two.
        assertThat(points(svg, "rate")).hasSize(4);
        assertThat(attribute(svg, "p99", "d")).startsWith("M").contains(" M");
        assertThat(points(svg, "p99")).hasSize(3);
        // Warm-up: the first two of four seconds, half the plot's width.
        NodeList warmUps = nodes(svg, "//*[@class='warm-up']");
        assertThat(warmUps.getLength()).isEqualTo(2);
        double plotWidth = Double.parseDouble(nodes(svg, "//*[local-name()='rect'][3]").item(0).getAttributes()
                .getNamedItem("width").getNodeValue());
        double warmUpWidth = Double.parseDouble(warmUps.item(0).getAttributes().getNamedItem("width").getNodeValue());
        assertThat(warmUpWidth).isCloseTo(plotWidth / 2, within(0.1));
        // The axes' tops: 100/s asked; the slowest measured second's p99, 37.4 ms, under 50 (the warm-up's 93.5 ms
        // is clipped).
        assertThat(yTicks(svg)).containsExactly("0", "50", "100", "0", "25", "50");
        assertThat(text(svg, "//*[local-name()='text'][2]")).contains("accepted (202) per second").contains("asked: 100/s");
    }

    @Test
    void theScriptLoadCountsItsAnswers() throws Exception {
        Map<String, String> script = Map.of(
                "script_rate_asked", "50",
                "script_warm_up_seconds", "1",
                "script_count_by_second", "50 50",
                "script_p99_ms_by_second", "0.80 0.30");

        Document svg = parse(SteadyLoadChart.svg(SteadyLoadChart.Load.of("the script alone", script)));

        assertThat(text(svg, "//*[local-name()='text'][2]")).contains("answers per second");
        assertThat(points(svg, "p99")).hasSize(2);
        assertThat(yTicks(svg)).containsExactly("0", "25", "50", "0", "0.25", "0.50");
    }

    @Test
    void axisTopsAreRoundNumbers() {
        assertThat(SteadyLoadChart.niceCeiling(0)).isEqualTo(1);
        assertThat(SteadyLoadChart.niceCeiling(37.4)).isEqualTo(50);
        assertThat(SteadyLoadChart.niceCeiling(100)).isEqualTo(100);
        assertThat(SteadyLoadChart.niceCeiling(1_801)).isEqualTo(2_000);
        assertThat(SteadyLoadChart.niceCeiling(0.37)).isCloseTo(0.5, within(1e-9));
    }

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static NodeList nodes(Document svg, String xpath) throws Exception {
        return (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, svg, XPathConstants.NODESET);
    }

    private static String text(Document svg, String xpath) throws Exception {
        return nodes(svg, xpath).item(0).getTextContent();
    }

    private static String attribute(Document svg, String cssClass, String name) throws Exception {
        return nodes(svg, "//*[@class='" + cssClass + "']").item(0).getAttributes().getNamedItem(name).getNodeValue();
    }

    private static List<String> points(Document svg, String cssClass) throws Exception {
        return List.of(attribute(svg, cssClass, "d").split("[ML]")).stream().filter(p -> !p.isBlank()).toList();
    }

    private static List<String> yTicks(Document svg) throws Exception {
        NodeList ticks = nodes(svg, "//*[@class='y-tick']");
        List<String> values = new ArrayList<>();
        for (int i = 0; i < ticks.getLength(); i++) {
            values.add(ticks.item(i).getTextContent());
        }
        return values;
    }
}
